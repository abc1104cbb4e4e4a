// Page weight of the production build: gzip bytes of each page's HTML and the bytes of JavaScript it loads.
// Usage: npm run build && node bench/page-weight.mjs  (starts its own server on a scratch database)
import { spawn } from "node:child_process";
import { get } from "node:http";
import { rmSync } from "node:fs";

const port = 3290;
const dataDir = "./data/bench";
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["/", "/issues/2", "/about", "/support/contact-us"];

function fetchRaw(path, headers = {}) {
  return new Promise((resolve, reject) => {
    get({ host: "127.0.0.1", port, path, headers }, (res) => {
      const chunks = [];
      res.on("data", (chunk) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    }).on("error", reject);
  });
}

rmSync(dataDir, { recursive: true, force: true });
const server = spawn("node", ["server.js"], {
  env: { ...process.env, NODE_ENV: "production", PORT: String(port), DATA_DIR: dataDir, DATABASE_URL: `file:${dataDir}/app.db`, SESSION_SECRET: "bench-secret-bench-secret-bench-secret-0000" },
  stdio: "ignore",
});
try {
  for (let i = 0; i < 50; i++) {
    try {
      if ((await fetchRaw("/healthz")).status === 200) break;
    } catch {}
    await new Promise((r) => setTimeout(r, 200));
  }
  console.log("page\thtml bytes\thtml gzip bytes\tscripts\tjs bytes");
  for (const page of pages) {
    const plain = await fetchRaw(page);
    const gzip = await fetchRaw(page, { "accept-encoding": "gzip" });
    const html = plain.body.toString("utf8");
    const scripts = [...html.matchAll(/<script\b[^>]*?(?:src="([^"]+)")?[^>]*>/g)];
    const modules = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"/g)].map((m) => m[1]);
    let jsBytes = 0;
    for (const src of new Set([...scripts.map((m) => m[1]).filter(Boolean), ...modules])) {
      jsBytes += (await fetchRaw(src, { "accept-encoding": "gzip" })).body.length;
    }
    console.log(`${page}\t${plain.body.length}\t${gzip.body.length} (${gzip.headers["content-encoding"] ?? "identity"})\t${scripts.length}\t${jsBytes}`);
  }
} finally {
  server.kill("SIGTERM");
}
