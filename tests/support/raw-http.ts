import { readFileSync, readdirSync } from "node:fs";
import http from "node:http";
import net from "node:net";

// Requests as a misbehaving client sends them (any method, header or body, cut short), and a look at the
// server process: used by tests/e2e/request-limits.spec.ts, tests/e2e/fuzz.spec.ts and scripts/fuzz.ts.

export type RawOutcome = { status: number | null; head: string; body: string; outcome: "answered" | "closed" | "hung" };

/**
 * Writes the bytes on a fresh connection and reads the answer until the server closes it (the request should
 * say `Connection: close`). `endAfterWrite` half-closes the connection at once, as a client that gave up.
 */
export function rawRequest(port: number, bytes: Buffer | string, { endAfterWrite = false, timeoutMs = 10_000 } = {}): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = net.connect({ port, host: "127.0.0.1" });
    let done = false;
    const finish = (outcome: RawOutcome["outcome"]) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString("latin1");
      const match = /^HTTP\/1\.[01] (\d{3})/.exec(text);
      const [head = "", body = ""] = text.split("\r\n\r\n", 2);
      resolve({ status: match ? Number(match[1]) : null, head, body, outcome: match ? "answered" : outcome });
    };
    const timer = setTimeout(() => finish("hung"), timeoutMs);
    socket.on("data", (chunk) => chunks.push(chunk));
    socket.on("end", () => finish("closed"));
    socket.on("close", () => finish("closed"));
    socket.on("error", () => finish("closed"));
    socket.write(bytes, () => {
      if (endAfterWrite) socket.end();
    });
  });
}

export type StreamedReply = { status: number; body: string; sent: number };

/** A POST whose body is streamed in chunks (chunked, no Content-Length); stops sending once answered. */
export function streamPost(port: number, path: string, contentType: string, chunk: Buffer, times: number): Promise<StreamedReply> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request({ port, host: "127.0.0.1", path, method: "POST", headers: { "content-type": contentType, "transfer-encoding": "chunked" } }, (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8").on("data", (text) => (body += text));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body, sent }));
    });
    request.on("error", (error) => (answered ? undefined : reject(error)));
    let left = times;
    const writeMore = () => {
      while (!answered) {
        if (left-- <= 0) return void request.end();
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once("drain", writeMore);
      }
    };
    writeMore();
  });
}

/** The pid of the app server started with PORT=port (`node server.js`), found in /proc; null if none. */
export function serverPid(port: number): number | null {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (!command.some((part) => part.endsWith("server.js"))) continue;
      const environment = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      if (environment.includes(`PORT=${port}`)) return Number(entry);
    } catch {
      // The process ended, or is not ours to read.
    }
  }
  return null;
}

/** Resident memory of a process in MB (VmRSS). */
export function residentMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").split("\n").find((l) => l.startsWith("VmRSS:"));
  return Math.round(Number(line?.replace(/\D+/g, "") ?? 0) / 1024);
}

/** A request's bytes: request line, headers (Connection: close added) and body. */
export function requestBytes(method: string, path: string, headers: [string, string][], body: Buffer = Buffer.alloc(0)): Buffer {
  const lines = [`${method} ${path} HTTP/1.1`, ...headers.map(([name, value]) => `${name}: ${value}`), "Connection: close", "", ""];
  return Buffer.concat([Buffer.from(lines.join("\r\n"), "latin1"), body]);
}
