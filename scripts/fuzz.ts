// A longer fuzz run than CI's (tests/e2e/fuzz.spec.ts): malformed requests against the production build on a
// scratch database. Usage: npm run fuzz   (FUZZ_COUNT=20000, FUZZ_SEED=random, FUZZ_CONCURRENCY=8)
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { runFuzz } from "../tests/support/fuzz";
import { rawRequest, requestBytes, residentMb } from "../tests/support/raw-http";

const port = Number(process.env.FUZZ_PORT ?? 3292);
const count = Number(process.env.FUZZ_COUNT ?? 20_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
const concurrency = Number(process.env.FUZZ_CONCURRENCY ?? 8);
const dataDir = "./data/fuzz";

rmSync(dataDir, { recursive: true, force: true });
const server = spawn("node", ["server.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: `file:${dataDir}/app.db`, SESSION_SECRET: "fuzz-secret-fuzz-secret-fuzz-secret-000000", DATA_ENCRYPTION_KEY: Buffer.alloc(32, 0xf0).toString("base64"), WEB_CONCURRENCY: "1" },
  stdio: ["ignore", "pipe", "pipe"],
});
const lines = { refused: 0, other: [] as string[] };
for (const stream of [server.stdout, server.stderr]) {
  stream.setEncoding("utf8").on("data", (text: string) => {
    for (const line of text.split("\n").filter(Boolean)) {
      if (line.startsWith("refused ")) lines.refused++;
      else lines.other.push(line);
    }
  });
}
let exited = false;
server.on("exit", () => (exited = true));

for (let i = 0; ; i++) {
  if ((await rawRequest(port, requestBytes("GET", "/healthz", [["Host", "localhost"]]), { timeoutMs: 1000 })).status === 200) break;
  if (i > 100 || exited) throw new Error("the server did not start");
  await new Promise((resolve) => setTimeout(resolve, 200));
}
const rssBefore = residentMb(server.pid!);
const started = performance.now();
const result = await runFuzz(port, count, seed, concurrency);
const seconds = (performance.now() - started) / 1000;
const alive = !exited && (await rawRequest(port, requestBytes("GET", "/healthz", [["Host", "localhost"]]))).status === 200;
console.log(`seed ${seed}: ${result.total} requests in ${seconds.toFixed(1)} s`);
console.log(`by status: ${JSON.stringify(Object.fromEntries(Object.entries(result.byStatus).sort()))}`);
console.log(`server RSS ${rssBefore} MB before, ${exited ? "?" : residentMb(server.pid!)} MB after; still answering: ${alive}`);
console.log(`log: ${lines.refused} one-line refusals; other lines (${lines.other.length}):`);
for (const line of lines.other.slice(-15)) console.log(`  ${line.slice(0, 200)}`);
for (const failure of result.failures.slice(0, 20)) console.log(`FAIL ${failure.label}: ${failure.outcome.status ?? failure.outcome.outcome} ${failure.outcome.body.slice(0, 200)}`);
server.kill("SIGTERM");
process.exit(result.failures.length === 0 && alive ? 0 : 1);
