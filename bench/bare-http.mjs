// The floor for bench/viewer-step.ts (its "bare" setup): a bare node:http server answering the same requests
// as the viewer does (a form POST with a redirect, then a GET with a gzip page of about a viewer page's size),
// with no framework, database or rendering. The application's steps per second are read against it, in the
// same run, so that the load of a shared machine cancels out.
import http from "node:http";
import { gzipSync } from "node:zlib";

const page = gzipSync(`<!doctype html><html lang="en"><body data-viewer>${"<p>An interview page of about the viewer's size.</p>".repeat(110)}</body></html>`);
const port = Number(process.env.PORT ?? 3291);

const server = http.createServer((req, res) => {
  if (req.url === "/healthz") return void res.end("ok");
  if (req.method === "POST") {
    req.resume();
    req.on("end", () => {
      res.writeHead(302, { Location: req.url, "Content-Length": "0" });
      res.end();
    });
    return;
  }
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Encoding": "gzip", "Content-Length": String(page.length), Vary: "Accept-Encoding" });
  res.end(page);
});
server.listen(port, "0.0.0.0");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
