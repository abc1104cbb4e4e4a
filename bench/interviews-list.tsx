// "My interviews" with 1,000,000 interviews in the database, 100,000 of them one user's: the page's query and
// render, median and p95 over repeated runs, on SQLite and on PostgreSQL.
// Usage: npm run bench:interviews  (TEST_POSTGRES_URL to use another server; BENCH_SKIP_POSTGRES=1 to skip it)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { renderToString } from "react-dom/server";
import { openDatabase, type DatabaseHandle } from "../db/database";
import { migrateToLatest } from "../db/migrate";
import { seedDatabase } from "../db/seed";
import { InterviewTable } from "../app/interviews/interview-table";
import { listInterviews } from "../app/interviews/interviews.server";
import { createTestDatabase } from "../tests/support/databases";

const TOTAL = 1_000_000;
const USERS = 10; // one user has 100,000 interviews
const RUNS = 300;
const VARS = JSON.stringify({ "client first name te": { name: "Client first name TE", type: "Text", values: [null, "Ana"] } });

async function fill(handle: DatabaseHandle, userIds: string[]) {
  const db = handle.db;
  const now = new Date().toISOString();
  await db
    .insertInto("users")
    .values(userIds.map((id, i) => ({ id, first_name: "Bench", last_name: `User ${i}`, email: `bench${i}@example.org`, email_key: `bench${i}@example.org`, phone_country: "SG", phone_code: "+65", phone_number: "1", password_hash: null, email_verified_at: now, totp_secret: null, two_factor_enabled: 0, totp_last_step: null, created_at: now, updated_at: now })))
    .execute();
  const base = Date.UTC(2026, 0, 1);
  if (handle.dialect === "postgres") {
    await sql`insert into interviews (id, user_id, issue_id, status, vars, engine_state, created_at, updated_at)
      select 'i' || n, ${sql.raw(`(array[${userIds.map((u) => `'${u}'`).join(",")}])`)}[1 + n % ${USERS}],
        case when n % 2 = 0 then 2 else 6 end, case when n % 3 = 0 then 'Completed' else 'Draft' end, ${VARS}, '{}',
        to_char(to_timestamp(${base / 1000} + n * 20) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'),
        to_char(to_timestamp(${base / 1000} + n * 20) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')
      from generate_series(1, ${TOTAL}) as n`.execute(db);
    // What autovacuum does in steady state; without it, fresh rows cannot be counted from the index alone.
    await sql`vacuum analyze interviews`.execute(db);
    return;
  }
  await sql`
    with recursive n(v) as (select 1 union all select v + 1 from n where v < ${TOTAL})
    insert into interviews (id, user_id, issue_id, status, vars, engine_state, created_at, updated_at)
    select 'i' || v,
      case v % ${USERS} ${sql.raw(userIds.map((u, i) => `when ${i} then '${u}'`).join(" "))} end,
      case when v % 2 = 0 then 2 else 6 end, case when v % 3 = 0 then 'Completed' else 'Draft' end, ${VARS}, '{}',
      strftime('%Y-%m-%dT%H:%M:%S.000Z', ${base / 1000} + v * 20, 'unixepoch'),
      strftime('%Y-%m-%dT%H:%M:%S.000Z', ${base / 1000} + v * 20, 'unixepoch')
    from n`.execute(db);
  await sql`analyze`.execute(db);
}

async function measure(handle: DatabaseHandle, userId: string) {
  const times: Record<string, number[]> = { "page 1 of 5": [], "page 1000 of 10": [], "page 4000 of 25": [] };
  const cases: [string, number, 5 | 10 | 25][] = [
    ["page 1 of 5", 1, 5],
    ["page 1000 of 10", 1000, 10],
    ["page 4000 of 25", 4000, 25],
  ];
  for (let run = 0; run < RUNS; run++) {
    for (const [name, page, pageSize] of cases) {
      const start = performance.now();
      const list = await listInterviews(userId, { page, pageSize }, handle.db);
      const html = renderToString(<InterviewTable list={list} />);
      times[name]!.push(performance.now() - start);
      if (run === 0 && (list.total !== TOTAL / USERS || !html.includes("<table"))) throw new Error("unexpected result");
    }
  }
  const stat = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.floor(values.length * q)]!.toFixed(2);
  for (const [name, values] of Object.entries(times)) {
    console.log(`${handle.dialect}\t${name}\tmedian ${stat(values, 0.5)} ms\tp95 ${stat(values, 0.95)} ms\t(${RUNS} runs)`);
  }
}

async function run(handle: DatabaseHandle) {
  await migrateToLatest(handle.db);
  await seedDatabase(handle.db, "db/seed");
  const userIds = Array.from({ length: USERS }, (_, i) => `bench-user-${i}`);
  const started = performance.now();
  await fill(handle, userIds);
  console.log(`${handle.dialect}\t${TOTAL.toLocaleString("en")} interviews written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await measure(handle, userIds[0]!);
}

const dir = mkdtempSync(path.join(tmpdir(), "lsh-bench-"));
const sqlite = openDatabase(`file:${path.join(dir, "bench.db")}`);
try {
  await run(sqlite);
} finally {
  await sqlite.db.destroy();
  rmSync(dir, { recursive: true, force: true });
}
if (!process.env.BENCH_SKIP_POSTGRES) {
  const postgres = await createTestDatabase("postgres");
  try {
    await run(postgres);
  } finally {
    await postgres.drop();
  }
}
