// A page step of the viewer (POST answers → redirect → next page HTML) under 50 concurrent users, against the
// production build on a scratch SQLite database; plus the gzip size of a viewer page and of its script.
// Usage: npm run bench:viewer   (BENCH_SECONDS=20, BENCH_WARMUP=3, BENCH_PORT=3291 by default; WEB_CONCURRENCY is passed on)
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { gzipSync } from "node:zlib";
import autocannon, { type Request as CannonRequest } from "autocannon";

const port = Number(process.env.BENCH_PORT ?? 3291);
const dataDir = "./data/bench-viewer";
const secret = "bench-viewer-secret-bench-viewer-secret-0000";
// A fixed key: the bench measures the server as deployed, answers and files sealed.
const dataKey = Buffer.alloc(32, 7).toString("base64");
const users = 50;
// Each user answers this many pages of an interview, then goes on in their next one: a real interview's page
// history (which every save stores) stays this short, where one endless interview would grow all run long.
const stepsPerInterview = 40;
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);

rmSync(dataDir, { recursive: true, force: true });
Object.assign(process.env, { NODE_ENV: "production", DATA_DIR: dataDir, DATABASE_URL: `file:${dataDir}/app.db`, SESSION_SECRET: secret, DATA_ENCRYPTION_KEY: dataKey, PORT: String(port) });

// The app's own modules set up the data: migrations, content, the bench guide, users with sessions and interviews.
const { databaseHandle, closeDatabase } = await import("../app/db.server");
const { prepareDatabase } = await import("../server/database-setup");
const { importGuide, readGuideFolder } = await import("../app/guides/import.server");
const { getGuide } = await import("../app/guides/guides.server");
const { saveInterview } = await import("../app/interviews/interviews.server");
const { startSession } = await import("../app/auth/session.server");
const { database } = await import("../app/db.server");
const { startInterview } = await import("../app/a2j");
const { storedFiles } = await import("../app/storage/configured-storage.server");
const { configuredKeyring } = await import("../app/security/data-encryption.server");
await prepareDatabase(databaseHandle(), "db/seed", { keys: configuredKeyring(), storage: storedFiles() }, () => undefined);
await importGuide("step-bench", await readGuideFolder("bench/fixtures/step-guide"));
const db = database();
await db.insertInto("issues").values({ id: 901, category_id: 1, name: "Step benchmark", content: "", guide_id: "step-bench", guide_path: "step-bench/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" }).execute();
const guide = (await getGuide("step-bench"))!;
// Enough interviews that no user comes back to one during the run (at up to 2,000 steps/s).
const interviewsPerUser = Math.ceil(((warmup + seconds + 2) * 2000) / users / stepsPerInterview);
const sessions: { cookie: string; interviewIds: string[]; steps: number; interviewId?: string }[] = [];
for (let i = 0; i < users; i++) {
  const id = crypto.randomUUID();
  const now = new Date().toISOString();
  await db.insertInto("users").values({ id, first_name: "Bench", last_name: `${i}`, email: `b${i}@example.org`, email_key: `b${i}@example.org`, phone_country: "SG", phone_code: "+65", phone_number: "1", password_hash: null, email_verified_at: now, totp_secret: null, two_factor_enabled: 1, totp_last_step: null, created_at: now, updated_at: now }).execute();
  const started = startInterview(guide, 20000);
  if (!started.ok) throw new Error("guide does not start");
  const interviewIds: string[] = [];
  for (let n = 0; n < interviewsPerUser; n++) {
    interviewIds.push(await saveInterview({ id: null, userId: id, issueId: 901, status: "Draft", state: started.state, title: guide.title }));
  }
  sessions.push({ cookie: (await startSession({ userId: id }, null)).split(";")[0]!, interviewIds, steps: 0 });
}
await closeDatabase();

const server = spawn("node", [...(process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []), "server.js"], { env: process.env, stdio: "ignore" });
const base = `http://127.0.0.1:${port}`;

// The server's CPU time (its workers' too) from /proc, where there is one: less sensitive than throughput to
// other work on the machine. Linux counts it in ticks of 10 ms.
function procStat(pid: string): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}
function serverCpuMs(): number | null {
  if (!existsSync("/proc/self/stat") || !server.pid) return null;
  const root = String(server.pid);
  const pids = [root, ...readdirSync("/proc").filter((d) => /^\d+$/.test(d) && procStat(d)?.[1] === root)];
  return pids.reduce((sum, pid) => {
    const fields = procStat(pid);
    return fields ? sum + (Number(fields[11]) + Number(fields[12])) * 10 : sum;
  }, 0);
}
for (let i = 0; i < 100; i++) {
  if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
  await new Promise((r) => setTimeout(r, 200));
}

try {
  const viewerPath = (interviewId: string) => `/viewer?issueId=901&interviewId=${interviewId}`;
  // Page weight: one viewer page and the viewer's script, gzip.
  const first = sessions[0]!;
  const html = await (await fetch(base + viewerPath(first.interviewIds[0]!), { headers: { cookie: first.cookie } })).text();
  const script = readFileSync("public/scripts/viewer.js");
  if (!html.includes("data-viewer")) throw new Error(`not a viewer page: ${html.slice(0, 400)}`);
  console.log(`viewer page: ${html.length} B html, ${gzipSync(html).length} B gzip; viewer.js ${script.length} B, ${gzipSync(script).length} B gzip`);

  let next = 0;
  const pageA = new URLSearchParams({ _page: "A", _button: "0", "name te": "Ana Lim", "amount nu": "1250.50" }).toString();
  const pageB = new URLSearchParams({ _page: "B", _button: "0", "story te": "My landlord kept the bond.", "agree tf": "true" }).toString();
  // A step's latency runs from sending its POST to receiving the next page's HTML (the GET after the redirect).
  type Context = { session?: (typeof sessions)[number]; stepStartedAt?: number };
  let stepLatencies: number[] = [];
  const post = (body: string): CannonRequest => ({
    method: "POST",
    setupRequest: (request: CannonRequest, context: object) => {
      const own = context as Context;
      const session = (own.session ??= sessions[next++ % sessions.length]!);
      session.interviewId = session.interviewIds[Math.floor(session.steps++ / stepsPerInterview) % session.interviewIds.length]!;
      own.stepStartedAt = performance.now();
      return { ...request, path: viewerPath(session.interviewId), body, headers: { cookie: session.cookie, "content-type": "application/x-www-form-urlencoded" } };
    },
  });
  const get: CannonRequest = {
    method: "GET",
    setupRequest: (request: CannonRequest, context: object) => {
      const own = (context as Context).session!;
      return { ...request, path: `${viewerPath(own.interviewId!)}&saved=1`, headers: { cookie: own.cookie, "accept-encoding": "gzip" } };
    },
    onResponse: (_status: number, _body: string, context: object) => {
      const own = context as Context;
      if (own.stepStartedAt !== undefined) stepLatencies.push(performance.now() - own.stepStartedAt);
    },
  };
  const run = (duration: number) => autocannon({ url: base, connections: users, duration, requests: [post(pageA), get, post(pageB), get] });
  // A freshly started server compiles its code on the first requests. BENCH_WARMUP=0 measures from a cold start.
  if (warmup > 0) await run(warmup);
  stepLatencies = [];
  const cpuBefore = serverCpuMs();
  const result = await run(seconds);
  const cpuAfter = serverCpuMs();
  const steps = result.requests.average / 2;
  console.log(
    `${users} users, ${seconds} s${warmup > 0 ? ` after ${warmup} s of warm-up` : " from a cold start"}: ${result.requests.total} requests (${result.non2xx} non-2xx: the ${result.requests.total / 2} POSTs answer 302; ` +
      `status ${Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => `${code}: ${count}`).join(", ")}), ` +
      `${Math.round(result.requests.average)} req/s = ${Math.round(steps)} steps/s; latency per request median ${result.latency.p50} ms, p99 ${result.latency.p99} ms, max ${result.latency.max} ms; errors ${result.errors}` +
      (cpuBefore !== null && cpuAfter !== null ? `; server CPU ${((cpuAfter - cpuBefore) / (result.requests.total / 2)).toFixed(2)} ms per step` : ""),
  );
  const sorted = stepLatencies.sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(0);
  console.log(`latency per step (POST → next page HTML), ${sorted.length} steps: median ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms`);
} finally {
  server.kill("SIGTERM");
}
