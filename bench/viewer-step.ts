// A page step of the viewer (POST answers → redirect → next page HTML) under 50 concurrent users, against the
// production build; plus the gzip size of a viewer page and of its script.
// Usage: npm run bench:viewer   (BENCH_SECONDS=20, BENCH_WARMUP=3, BENCH_USERS=50 by default; WEB_CONCURRENCY is passed on)
//   BENCH_STEP=fetch measures the step as the frame's script takes it instead: one POST answered with the next
//   page (docs/decisions/0036-one-round-trip-per-step.md).
//   On a scratch SQLite database by default. With BENCH_DATABASE_URL=postgres://user@host:5432/postgres it runs
//   three setups one after another and prints them side by side: SQLite, PostgreSQL with one application
//   process, and PostgreSQL with two (each with its own DATA_DIR and port, the users split between them). The
//   database in the URL is only where the bench connects to create and drop its own scratch database.
//   BENCH_RUNS=N repeats the set N times (interleaved) and adds the medians. BENCH_SETUPS=sqlite,pg1,pg2 picks;
//   "bare" adds a bare node:http server answering the same requests (bench/bare-http.mjs): the floor, run in
//   the same set so that the load of a shared machine cancels out in the ratio printed with the medians.
//   BENCH_BASELINE_DIR=/path/to/another/checkout (built, with its own node_modules) adds "baseline": that
//   checkout's own bench/viewer-step.ts run in its folder as its SQLite setup (its data set up by its own modules:
//   a server refuses a database that newer migrations changed), interleaved with the others, to compare a change
//   with what it changes under the same load.
//   BENCH_PORT (3291): the first instance's port, the second the next.
//   BENCH_INSTANCE_CPU=0.4 caps each application instance at that share of one core (a CPU cgroup of its own;
//   Linux, as root): on a small machine the instances then do not compete with PostgreSQL and the load generator
//   for cores, which stands in for each instance having a machine of its own (how several instances scale).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon, { type Request as CannonRequest } from "autocannon";
import pg from "pg";
import { connectAdmin, databaseUrl, redactUrl } from "../tests/support/postgres";
import { preparePeople, STEP_ISSUE_ID, type StepPerson, stepForm } from "../tests/support/viewer-people";

const basePort = Number(process.env.BENCH_PORT ?? 3291);
const secret = "bench-viewer-secret-bench-viewer-secret-0000";
// A fixed key: the bench measures the server as deployed, answers and files sealed.
const dataKey = Buffer.alloc(32, 7).toString("base64");
const users = Number(process.env.BENCH_USERS ?? 50);
// Each user answers this many pages of an interview, then goes on in their next one: a real interview's page
// history (which every save stores) stays this short, where one endless interview would grow all run long.
const stepsPerInterview = 40;
const seconds = Number(process.env.BENCH_SECONDS ?? 20);
const warmup = Number(process.env.BENCH_WARMUP ?? 3);
const fetchedSteps = process.env.BENCH_STEP === "fetch";
const requestsPerStep = fetchedSteps ? 1 : 2;

type SetupName = "sqlite" | "pg1" | "pg2" | "bare" | "baseline";
const setupLabels: Record<SetupName, string> = { sqlite: "SQLite, 1 process", pg1: "PostgreSQL, 1 instance", pg2: "PostgreSQL, 2 instances", bare: "bare node:http", baseline: "baseline checkout, SQLite, 1 process" };
/** What one run of a setup measured (printed by the child as one JSON line). */
interface Measured {
  setup: SetupName;
  stepsPerSecond: number;
  stepP50: number;
  stepP99: number;
  appCpuMsPerStep: number | null;
  databaseCpuMsPerStep: number | null;
  transactionsPerStep: number | null;
  errors: number;
  /** What the server wrote to its standard output and error (its log) per step. */
  logBytesPerStep: number;
}
const resultMark = "BENCH_RESULT ";

const setup = process.env.BENCH_SETUP as SetupName | undefined;
if (setup) await runSetup(setup);
else await runAll();

/**
 * Each setup runs in a child process of its own: the application's modules keep one configuration and one
 * database connection per process.
 */
async function runAll() {
  const postgresUrl = process.env.BENCH_DATABASE_URL;
  if (postgresUrl && !/^postgres(ql)?:\/\//.test(postgresUrl)) throw new Error("BENCH_DATABASE_URL must be a postgres:// URL");
  const wanted = (process.env.BENCH_SETUPS?.split(",") ?? (postgresUrl ? ["sqlite", "pg1", "pg2"] : ["sqlite"])) as SetupName[];
  if (!postgresUrl && wanted.some((s) => s === "pg1" || s === "pg2")) throw new Error("the PostgreSQL setups need BENCH_DATABASE_URL");
  const runs = Number(process.env.BENCH_RUNS ?? 1);
  const results: Measured[] = [];
  for (let run = 1; run <= runs; run++) {
    for (const name of wanted) {
      console.log(`\n== ${setupLabels[name]}${runs > 1 ? `, run ${run} of ${runs}` : ""}`);
      results.push(await runChild(name));
    }
  }
  const fixed = (n: number | null, digits: number) => (n === null ? "–" : n.toFixed(digits));
  console.log(`\n${users} users, ${seconds} s after ${warmup} s of warm-up; server CPU from /proc (the load generator and PostgreSQL share the same cores)`);
  console.log("| setup | steps/s | step p50 | step p99 | app CPU ms/step | PostgreSQL CPU ms/step | transactions/step | log bytes/step |");
  console.log("|---|---|---|---|---|---|---|---|");
  for (const r of results) {
    console.log(`| ${setupLabels[r.setup]} | ${Math.round(r.stepsPerSecond)} | ${fixed(r.stepP50, 0)} ms | ${fixed(r.stepP99, 0)} ms | ${fixed(r.appCpuMsPerStep, 2)} | ${fixed(r.databaseCpuMsPerStep, 2)} | ${fixed(r.transactionsPerStep, 2)} | ${Math.round(r.logBytesPerStep)} |`);
  }
  if (runs > 1) {
    const median = (values: number[]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const mid = Math.floor(sorted.length / 2);
      return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
    };
    console.log("\nMedians:");
    const medians = new Map<SetupName, number>();
    for (const name of wanted) {
      const own = results.filter((r) => r.setup === name);
      const steps = median(own.map((r) => r.stepsPerSecond));
      medians.set(name, steps);
      const cpu = own.every((r) => r.appCpuMsPerStep !== null) ? median(own.map((r) => r.appCpuMsPerStep!)).toFixed(2) : "–";
      console.log(`  ${setupLabels[name]}: ${Math.round(steps)} steps/s, step p99 ${median(own.map((r) => r.stepP99)).toFixed(0)} ms, app CPU ${cpu} ms/step`);
    }
    const [sqlite, pg1, pg2, bare] = [medians.get("sqlite"), medians.get("pg1"), medians.get("pg2"), medians.get("bare")];
    const baseline = medians.get("baseline");
    if (sqlite && baseline) {
      const ratios = results.filter((r) => r.setup === "sqlite").map((r, i) => r.stepsPerSecond / results.filter((b) => b.setup === "baseline")[i]!.stepsPerSecond);
      console.log(`  SQLite / baseline: ${(100 * median(ratios)).toFixed(1)} % (median of each run's ratio: ${ratios.map((x) => (100 * x).toFixed(1)).join(", ")})`);
    }
    if (sqlite && bare) {
      const ratios = results.filter((r) => r.setup === "sqlite").map((r, i) => r.stepsPerSecond / results.filter((b) => b.setup === "bare")[i]!.stepsPerSecond);
      console.log(`  SQLite / bare node:http: ${(100 * median(ratios)).toFixed(1)} % (median of each run's ratio: ${ratios.map((x) => (100 * x).toFixed(1)).join(", ")})`);
    }
    if (sqlite && pg1) console.log(`  PostgreSQL×1 / SQLite: ${Math.round((100 * pg1) / sqlite)} %`);
    if (pg1 && pg2) console.log(`  PostgreSQL×2 / PostgreSQL×1: ${(pg2 / pg1).toFixed(2)}×`);
  }
}

function runChild(name: SetupName): Promise<Measured> {
  // The baseline runs its own checkout's bench, in its own folder, as its SQLite setup: its data is set up by its
  // own modules (this checkout's migrations and data, which an older server refuses to start on, are not its).
  const baselineDir = name === "baseline" ? process.env.BENCH_BASELINE_DIR : undefined;
  if (name === "baseline" && !baselineDir) throw new Error("the baseline setup needs BENCH_BASELINE_DIR");
  const script = baselineDir ? path.join(baselineDir, "bench/viewer-step.ts") : process.argv[1]!;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, script], {
      env: { ...process.env, BENCH_SETUP: baselineDir ? "sqlite" : name },
      cwd: baselineDir,
      stdio: ["ignore", "pipe", "inherit"],
    });
    let result: Measured | null = null;
    let buffered = "";
    child.stdout.setEncoding("utf8").on("data", (text: string) => {
      buffered += text;
      let newline;
      while ((newline = buffered.indexOf("\n")) >= 0) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        // An older baseline's bench measured no log bytes.
        if (line.startsWith(resultMark)) {
          const measured = JSON.parse(line.slice(resultMark.length)) as Omit<Measured, "logBytesPerStep"> & Partial<Measured>;
          result = { ...measured, logBytesPerStep: measured.logBytesPerStep ?? 0, setup: name };
        }
        else console.log(line);
      }
    });
    child.on("exit", (code) => (code === 0 && result ? resolve(result) : reject(new Error(`the ${name} run failed (exit code ${code})`))));
  });
}

// The CPU time of processes (and their children: a server's workers) from /proc, where there is one: less
// sensitive than throughput to other work on the machine. Linux counts it in ticks of 10 ms.
function procStat(pid: string): string[] | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}
function cpuMs(pids: string[]): number {
  return pids.reduce((sum, pid) => {
    const fields = procStat(pid);
    return fields ? sum + (Number(fields[11]) + Number(fields[12])) * 10 : sum;
  }, 0);
}
function withChildren(pid: number): string[] {
  const root = String(pid);
  return [root, ...readdirSync("/proc").filter((d) => /^\d+$/.test(d) && procStat(d)?.[1] === root)];
}

/**
 * Puts a process in a CPU cgroup of its own capped at `cores` of one core (cgroup v1's cpu controller, or v2's
 * cpu.max); returns the group's folder, to remove once the process has ended.
 */
function capCpu(pid: number, group: string, cores: number): string {
  const quota = String(Math.round(cores * 100_000));
  const v1 = "/sys/fs/cgroup/cpu";
  const v2 = "/sys/fs/cgroup";
  try {
    if (existsSync(`${v1}/cpu.cfs_quota_us`)) {
      const dir = `${v1}/${group}`;
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/cpu.cfs_period_us`, "100000");
      writeFileSync(`${dir}/cpu.cfs_quota_us`, quota);
      writeFileSync(`${dir}/cgroup.procs`, String(pid));
      return dir;
    }
    const dir = `${v2}/${group}`;
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}/cpu.max`, `${quota} 100000`);
    writeFileSync(`${dir}/cgroup.procs`, String(pid));
    return dir;
  } catch (error) {
    throw new Error(`BENCH_INSTANCE_CPU needs a writable Linux CPU cgroup (run as root): ${(error as Error).message}`);
  }
}

async function runSetup(name: SetupName) {
  const instances = name === "pg2" ? 2 : 1;
  const scratchName = `lsh_bench_${process.pid}`;
  const adminUrl = process.env.BENCH_DATABASE_URL ?? "";
  let databaseUrlForRun: string;
  if (name === "baseline") throw new Error("the baseline runs its own checkout's bench (runChild)");
  if (name === "sqlite" || name === "bare") {
    databaseUrlForRun = `file:${path.resolve("data/bench-viewer-0/app.db")}`;
  } else {
    const admin = await connectAdmin(adminUrl);
    await admin.query(`drop database if exists ${scratchName} with (force)`);
    await admin.query(`create database ${scratchName}`);
    await admin.end();
    databaseUrlForRun = databaseUrl(adminUrl, scratchName);
    console.log(`scratch database ${redactUrl(databaseUrlForRun)}`);
  }
  const dataDirs = Array.from({ length: instances }, (_, i) => path.resolve(`data/bench-viewer-${i}`));
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  Object.assign(process.env, { NODE_ENV: "production", DATA_DIR: dataDirs[0], DATABASE_URL: databaseUrlForRun, SESSION_SECRET: secret, DATA_ENCRYPTION_KEY: dataKey, PORT: String(basePort) });

  // The app's own modules set up the data: migrations, content, the bench guide, users with sessions and interviews.
  // Enough interviews that no user comes back to one during the run (at up to 2,000 steps/s).
  const interviewsPerPerson = Math.ceil(((warmup + seconds + 2) * 2000) / users / stepsPerInterview);
  const people = name === "bare" ? Array.from({ length: users }, (_, i) => ({ cookie: `bare=${i}`, interviewIds: [`bare-${i}`] })) : await preparePeople({ people: users, interviewsPerPerson });
  const sessions: (StepPerson & { steps: number; interviewId?: string })[] = people.map((p) => ({ ...p, steps: 0 }));

  // Another server on these ports (another bench) would answer in their place, with 302s that look like steps.
  for (let i = 0; i < instances; i++) {
    if (await fetch(`http://127.0.0.1:${basePort + i}/healthz`).then(() => true, () => false)) throw new Error(`port ${basePort + i} is in use: is another bench running?`);
  }
  const servers = dataDirs.map((dataDir, i) =>
    spawn("node", [...(process.env.BENCH_PROFILE ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof"] : []), name === "bare" ? "bench/bare-http.mjs" : "server.js"], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(basePort + i) },
      // Read as a log collector reads a container's output: a pipe, drained.
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  let logBytes = 0;
  // The end of each server's output, shown when it stops before it could answer.
  const lastOutput = servers.map(() => "");
  servers.forEach((server, i) => {
    for (const stream of [server.stdout!, server.stderr!]) {
      stream.on("data", (chunk: Buffer) => {
        logBytes += chunk.length;
        lastOutput[i] = (lastOutput[i] + chunk.toString("utf8")).slice(-2000);
      });
    }
  });
  const instanceCpu = process.env.BENCH_INSTANCE_CPU ? Number(process.env.BENCH_INSTANCE_CPU) : null;
  if (instanceCpu !== null && !(instanceCpu > 0)) throw new Error("BENCH_INSTANCE_CPU must be a share of one core, such as 0.4");
  const cpuGroups = instanceCpu === null ? [] : servers.map((server, i) => capCpu(server.pid!, `lsh-bench-${process.pid}-${i}`, instanceCpu));
  if (instanceCpu !== null) console.log(`each instance capped at ${instanceCpu} of a core`);
  const bases = servers.map((_, i) => `http://127.0.0.1:${basePort + i}`);
  const stopped = (server: (typeof servers)[number]) => server.exitCode !== null || server.signalCode !== null;
  for (const [i, base] of bases.entries()) {
    for (let tries = 0; tries < 100; tries++) {
      if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
      if (stopped(servers[i]!)) {
        for (const dir of cpuGroups) rmdirSync(dir);
        throw new Error(`the server on port ${basePort + i} stopped (exit code ${servers[i]!.exitCode}) before it answered:\n${lastOutput[i]}`);
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  // PostgreSQL's side: its backends serving the scratch database, and its count of committed transactions.
  const monitor = name === "sqlite" || name === "bare" ? null : new pg.Client({ connectionString: databaseUrlForRun });
  await monitor?.connect();
  const databaseSide = async () => {
    if (!monitor) return null;
    const backends = await monitor.query<{ pid: number }>("select pid from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()", [scratchName]);
    const { rows } = await monitor.query<{ xact_commit: string }>("select xact_commit from pg_stat_database where datname = $1", [scratchName]);
    return { pids: backends.rows.map((r) => String(r.pid)), commits: Number(rows[0]!.xact_commit) };
  };

  try {
    const viewerPath = (interviewId: string) => `/viewer?issueId=${STEP_ISSUE_ID}&interviewId=${interviewId}`;
    // Page weight: one viewer page and the viewer's script, gzip.
    const first = sessions[0]!;
    const html = await (await fetch(bases[0] + viewerPath(first.interviewIds[0]!), { headers: { cookie: first.cookie } })).text();
    // The script as served: the build minifies public/scripts (vite.config.ts).
    const script = readFileSync("build/client/scripts/viewer.js");
    if (!html.includes("data-viewer")) throw new Error(`not a viewer page: ${html.slice(0, 400)}`);
    console.log(`viewer page: ${html.length} B html, ${gzipSync(html).length} B gzip; viewer.js ${script.length} B, ${gzipSync(script).length} B gzip`);

    const [pageA, pageB] = [stepForm("A", "1250.50"), stepForm("B", "the bond")];
    // A step's latency runs from sending its POST to receiving the next page's HTML (the GET after the redirect).
    type Context = { session?: (typeof sessions)[number]; stepStartedAt?: number };
    let stepLatencies: number[] = [];
    let failedSteps = 0;
    // Each instance gets its share of the users (its own connections): one load generator per instance.
    const share = (instance: number) => sessions.filter((_, i) => i % instances === instance);
    function stepDone(status: number, _body: string, context: object) {
      const mine = context as Context;
      // The next page, not a redirect (to / for a session the server does not know).
      if (status !== 200) failedSteps++;
      if (mine.stepStartedAt !== undefined) stepLatencies.push(performance.now() - mine.stepStartedAt);
    }
    const load = (instance: number, duration: number) => {
      const own = share(instance);
      let next = 0;
      const post = (body: string): CannonRequest => ({
        method: "POST",
        setupRequest: (request: CannonRequest, context: object) => {
          const mine = context as Context;
          const session = (mine.session ??= own[next++ % own.length]!);
          session.interviewId = session.interviewIds[Math.floor(session.steps++ / stepsPerInterview) % session.interviewIds.length]!;
          mine.stepStartedAt = performance.now();
          const headers: Record<string, string> = { cookie: session.cookie, "content-type": "application/x-www-form-urlencoded" };
          if (fetchedSteps) Object.assign(headers, { "viewer-fetch": "1", "accept-encoding": "gzip" });
          return { ...request, path: viewerPath(session.interviewId), body, headers };
        },
        ...(fetchedSteps ? { onResponse: stepDone } : {}),
      });
      const get: CannonRequest = {
        method: "GET",
        setupRequest: (request: CannonRequest, context: object) => {
          const session = (context as Context).session!;
          return { ...request, path: `${viewerPath(session.interviewId!)}&saved=1`, headers: { cookie: session.cookie, "accept-encoding": "gzip" } };
        },
        onResponse: stepDone,
      };
      const requests = fetchedSteps ? [post(pageA), post(pageB)] : [post(pageA), get, post(pageB), get];
      return autocannon({ url: bases[instance]!, connections: own.length, duration, requests });
    };
    const run = (duration: number) => Promise.all(bases.map((_, i) => load(i, duration)));
    // A freshly started server compiles its code on the first requests. BENCH_WARMUP=0 measures from a cold start.
    if (warmup > 0) await run(warmup);
    stepLatencies = [];
    failedSteps = 0;
    const serverPids = () => servers.flatMap((s) => withChildren(s.pid!));
    const hasProc = existsSync("/proc/self/stat");
    const appBefore = hasProc ? cpuMs(serverPids()) : null;
    const dbBefore = await databaseSide();
    const dbCpuBefore = dbBefore && hasProc ? cpuMs(dbBefore.pids) : null;
    const logBytesBefore = logBytes;
    const results = await run(seconds);
    const logBytesDuring = logBytes - logBytesBefore;
    const appAfter = hasProc ? cpuMs(serverPids()) : null;
    const dbAfter = await databaseSide();
    // Only the backends there at both ends count: with steady load the pool keeps its connections.
    const dbCpuAfter = dbAfter && dbBefore && hasProc ? cpuMs(dbBefore.pids.filter((p) => dbAfter.pids.includes(p))) : null;

    const total = results.reduce((sum, r) => sum + r.requests.total, 0);
    const stepsDone = total / requestsPerStep;
    const stepsPerSecond = results.reduce((sum, r) => sum + r.requests.average, 0) / requestsPerStep;
    const statuses = new Map<string, number>();
    for (const r of results) for (const [code, { count }] of Object.entries(r.statusCodeStats ?? {})) statuses.set(code, (statuses.get(code) ?? 0) + (count ?? 0));
    // autocannon counts a timeout among its errors too.
    const timeouts = results.reduce((sum, r) => sum + r.timeouts, 0);
    const errors = results.reduce((sum, r) => sum + r.errors, 0) - timeouts;
    const sorted = stepLatencies.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    const measured: Measured = {
      setup: name,
      stepsPerSecond,
      stepP50: at(0.5),
      stepP99: at(0.99),
      appCpuMsPerStep: appBefore !== null && appAfter !== null ? (appAfter - appBefore) / stepsDone : null,
      databaseCpuMsPerStep: dbCpuBefore !== null && dbCpuAfter !== null ? (dbCpuAfter - dbCpuBefore) / stepsDone : null,
      transactionsPerStep: dbBefore && dbAfter ? (dbAfter.commits - dbBefore.commits) / stepsDone : null,
      errors,
      logBytesPerStep: logBytesDuring / stepsDone,
    };
    console.log(
      `${setupLabels[name]}: ${users} users, ${seconds} s${warmup > 0 ? ` after ${warmup} s of warm-up` : " from a cold start"}: ${total} requests ` +
        `(status ${[...statuses].map(([code, count]) => `${code}: ${count}`).join(", ")}; the POSTs answer ${fetchedSteps ? "200 with the next page" : "302"}), ${Math.round(stepsPerSecond)} steps/s; ` +
        `per request ${results.map((r) => `median ${r.latency.p50} ms, p99 ${r.latency.p99} ms, max ${r.latency.max} ms`).join(" | ")}; errors ${errors}, timeouts ${timeouts}` +
        (measured.appCpuMsPerStep !== null ? `; app CPU ${measured.appCpuMsPerStep.toFixed(2)} ms per step` : "") +
        (measured.databaseCpuMsPerStep !== null ? `; PostgreSQL CPU ${measured.databaseCpuMsPerStep.toFixed(2)} ms per step` : "") +
        (measured.transactionsPerStep !== null ? `; ${measured.transactionsPerStep.toFixed(2)} transactions per step` : "") +
        `; log ${Math.round(measured.logBytesPerStep)} bytes per step`,
    );
    console.log(`latency per step (POST → next page HTML${fetchedSteps ? ", one request" : ""}), ${sorted.length} steps: median ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${at(1).toFixed(0)} ms`);
    const unexpected = [...statuses.keys()].filter((code) => code !== "200" && code !== "302");
    // A request that took over autocannon's 10 s happens on a machine other work overloads (a shared one): a few
    // are noted, not fatal; more than 1 % of the requests, or any other error, is.
    if (unexpected.length || errors || failedSteps || timeouts > total / 100) {
      throw new Error(`unexpected answers: ${unexpected.join(", ")}; ${errors} errors, ${timeouts} timeouts; ${failedSteps} steps without their next page`);
    }
    console.log(resultMark + JSON.stringify(measured));
  } finally {
    await monitor?.end();
    // A server that has already stopped sends no more "exit": waiting for it would leave nothing to wait on.
    const exited = servers.map((server) => (stopped(server) ? null : new Promise((resolve) => server.once("exit", resolve))));
    for (const server of servers) server.kill("SIGTERM");
    await Promise.all(exited);
    for (const dir of cpuGroups) rmdirSync(dir);
    if (name === "pg1" || name === "pg2") {
      const admin = await connectAdmin(adminUrl);
      await admin.query(`drop database if exists ${scratchName} with (force)`);
      await admin.end();
    }
  }
}
