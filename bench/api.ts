// The organisation's API on the production build (docs/decisions/0056-the-api.md): the OpenAPI document and a list
// endpoint, each asked one request at a time (latency: median and p95 of BENCH_REQUESTS, over BENCH_RUNS runs),
// then the document under load with autocannon. A server of its own on a scratch SQLite database (BENCH_PORT,
// 3520), its issues, an administrator and tokens planted (a token may make 600 requests a minute: one per run).
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import Database from "better-sqlite3";
import { startApp } from "../tests/support/app-process";

const port = Number(process.env.BENCH_PORT ?? 3520);
const requests = Number(process.env.BENCH_REQUESTS ?? 300);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dataDir = mkdtempSync(path.join(tmpdir(), "lsh-bench-api-"));
const databaseUrl = `file:${path.join(dataDir, "app.db")}`;

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;
const median = (values: number[]) => quantile(values, 0.5);

function plantTokens(count: number): string[] {
  const db = new Database(path.join(dataDir, "app.db"));
  const adminId = randomUUID();
  const now = new Date().toISOString();
  db.prepare(
    "insert into users (id, first_name, last_name, email, email_key, phone_country, phone_code, phone_number, password_hash, email_verified_at, totp_secret, two_factor_enabled, totp_last_step, role, created_at, updated_at) values (?, 'Bench', 'Admin', 'bench@example.org', 'bench@example.org', 'SG', '+65', '91234567', null, ?, null, 1, null, 'administrator', ?, ?)",
  ).run(adminId, now, now, now);
  const tokens = Array.from({ length: count }, () => `lsh_${randomBytes(32).toString("base64url")}`);
  const insert = db.prepare("insert into api_tokens (id, name, prefix, token_hash, scopes, created_by, created_at, expires_at) values (?, ?, ?, ?, 'issues:read shared:read', ?, ?, ?)");
  for (const token of tokens) insert.run(randomUUID(), "Bench", token.slice(0, 8), createHash("sha256").update(token).digest("base64url"), adminId, now, new Date(Date.now() + 86_400_000).toISOString());
  db.close();
  return tokens;
}

async function timed(url: string, token: string | null): Promise<{ median: number; p95: number; bytes: number }> {
  const times: number[] = [];
  let bytes = 0;
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    const response = await fetch(url, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
    const body = await response.arrayBuffer();
    times.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
    bytes = body.byteLength;
  }
  return { median: median(times), p95: quantile(times, 0.95), bytes };
}

const app = await startApp({ port, dataDir, databaseUrl });
try {
  const tokens = plantTokens(runs * 2);
  const base = `http://localhost:${port}/api/v1`;
  const rows: string[] = [];
  for (const [name, url, needsToken] of [
    ["GET /api/v1/openapi.json", `${base}/openapi.json`, false],
    ["GET /api/v1/issues?limit=50", `${base}/issues?limit=50`, true],
    ["GET /api/v1/shared-interviews", `${base}/shared-interviews`, true],
  ] as const) {
    const results = [];
    for (let run = 0; run < runs; run++) results.push(await timed(url, needsToken ? tokens[run * 2 + (name.includes("shared") ? 1 : 0)]! : null));
    rows.push(
      `${name.padEnd(34)} median ${median(results.map((r) => r.median)).toFixed(2)} ms, p95 ${median(results.map((r) => r.p95)).toFixed(2)} ms, ${results[0]!.bytes} bytes (medians of ${runs} runs of ${requests})`,
    );
  }
  const load = await autocannon({ url: `${base}/openapi.json`, connections: 10, duration: Number(process.env.BENCH_SECONDS ?? 5) });
  rows.push(`GET /api/v1/openapi.json, 10 connections: ${load.requests.average.toFixed(0)} requests/s, p50 ${load.latency.p50} ms, p99 ${load.latency.p99} ms, non-2xx ${load.non2xx}`);
  console.log(rows.join("\n"));
} finally {
  await app.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
