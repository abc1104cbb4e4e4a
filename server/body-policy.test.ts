import type { AddressInfo } from "node:net";
import http from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES, MAX_FILE_BYTES, MAX_FILES } from "~/security/request-guard.server";
import { bodyPolicy, postedBody } from "./body-policy";

// The edge's body policy on a small Express app: what reaches the next handler, and what is refused unread.
let server: http.Server;
let port: number;
const reached: string[] = [];

beforeAll(async () => {
  const app = express();
  app.use(bodyPolicy);
  app.use(async (req, res) => {
    reached.push(req.path);
    const body = postedBody(res);
    if (body?.kind === "multipart") {
      const entries = await Promise.all(
        [...body.form.entries()].map(async ([name, value]) => [name, typeof value === "string" ? value : { name: value.name, type: value.type, size: value.size, head: Buffer.from(await value.slice(0, 4).arrayBuffer()).toString("latin1") }]),
      );
      return void res.json({ kind: body.kind, entries });
    }
    res.json(body ? { kind: body.kind, text: body.bytes.toString("utf8") } : { kind: null });
  });
  server = app.listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
});

type Reply = { status: number; body: string; sent: number };

/** Posts the chunks one after another (chunked, no Content-Length unless given); stops writing when answered. */
function post(path: string, type: string | null, chunks: Iterable<Buffer>, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = false;
    const request = http.request({ port, path, method: "POST", headers: { ...(type ? { "content-type": type } : {}), ...headers } }, (response) => {
      answered = true;
      let body = "";
      response.setEncoding("utf8").on("data", (chunk) => (body += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, body, sent }));
      response.on("error", reject);
    });
    request.on("error", (error) => (answered ? undefined : reject(error)));
    const iterator = chunks[Symbol.iterator]();
    const writeMore = () => {
      for (;;) {
        if (answered) return;
        const next = iterator.next();
        if (next.done) return void request.end();
        sent += next.value.length;
        if (!request.write(next.value)) return void request.once("drain", writeMore);
      }
    };
    writeMore();
  });
}

function* repeat(chunk: Buffer, times: number) {
  for (let i = 0; i < times; i++) yield chunk;
}

function multipart(parts: { name: string; value: string | Buffer; filename?: string; type?: string }[], boundary = "xyzBOUNDARYxyz"): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename !== undefined ? `; filename="${part.filename}"` : ""}`;
    const type = part.filename !== undefined ? `Content-Type: ${part.type ?? "application/pdf"}\r\n` : "";
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(part.value), Buffer.from("\r\n"));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

const multipartType = "multipart/form-data; boundary=xyzBOUNDARYxyz";

describe("the body policy", () => {
  it("hands on a URL-encoded form and a JSON body to /assemble as bytes", async () => {
    expect(await post("/support/contact-us", "application/x-www-form-urlencoded", [Buffer.from("name=A&message=b%20c")])).toMatchObject({
      status: 200,
      body: JSON.stringify({ kind: "urlencoded", text: "name=A&message=b%20c" }),
    });
    expect(await post("/assemble", "application/json", [Buffer.from('{"guideId":"x"}')])).toMatchObject({ status: 200, body: JSON.stringify({ kind: "json", text: '{"guideId":"x"}' }) });
  });

  it("refuses a chunked body with 413 once it passes the cap, long before the client has sent it all", async () => {
    const before = reached.length;
    const reply = await post("/support/contact-us", "application/x-www-form-urlencoded", repeat(Buffer.alloc(64 * 1024, 97), 800));
    expect(reply).toMatchObject({ status: 413, body: "What was sent is too large." });
    expect(reply.sent).toBeLessThan(20 * 1024 * 1024);
    expect(reached.length).toBe(before);
  });

  it("accepts a body of exactly the cap", async () => {
    const reply = await post("/x", "application/x-www-form-urlencoded", [Buffer.alloc(MAX_BODY_BYTES, 97)]);
    expect(reply.status).toBe(200);
  });

  it("refuses what is not a form with 400, and malformed JSON to /assemble", async () => {
    for (const [path, type, body] of [
      ["/auth/sign-in", "application/json", '{"email":"a"}'],
      ["/auth/sign-in", null, "email=a"],
      ["/viewer", "multipart/form-data", "x"],
      ["/assemble", "application/json", '{"guideId":'],
    ] as const) {
      expect(await post(path, type, [Buffer.from(body)]), `${path} ${type}`).toMatchObject({ status: 400, body: "What was sent could not be read." });
    }
  });

  it("parses multipart as it streams: fields and files", async () => {
    const body = multipart([
      { name: "answer", value: "yes ✓" },
      { name: "upload", value: Buffer.from("%PDF-1.4\n"), filename: "a.pdf" },
      // What a browser sends for a file input left empty.
      { name: "empty", value: "", filename: "", type: "application/octet-stream" },
    ]);
    const reply = await post("/viewer", multipartType, [body]);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body)).toEqual({
      kind: "multipart",
      entries: [
        ["answer", "yes ✓"],
        ["upload", { name: "a.pdf", type: "application/pdf", size: 9, head: "%PDF" }],
        ["empty", { name: "", type: "application/octet-stream", size: 0, head: "" }],
      ],
    });
  });

  it("cuts a file over its limit and hands it on, so the viewer's own check can refuse it", async () => {
    const big = Buffer.concat([Buffer.from("%PDF-"), Buffer.alloc(MAX_FILE_BYTES + 1 - 5, 32)]);
    const reply = await post("/viewer", multipartType, [multipart([{ name: "upload", value: big, filename: "big.pdf" }])]);
    expect(reply.status).toBe(200);
    expect(JSON.parse(reply.body).entries[0][1]).toMatchObject({ name: "big.pdf", size: MAX_FILE_BYTES, head: "%PDF" });
  });

  it("refuses multipart past its limits with 413, and cut-off multipart with 400", async () => {
    const files = Array.from({ length: MAX_FILES + 1 }, (_, i) => ({ name: `f${i}`, value: "x", filename: `${i}.pdf` }));
    expect(await post("/viewer", multipartType, [multipart(files)])).toMatchObject({ status: 413 });
    expect(await post("/viewer", multipartType, [multipart([{ name: "a", value: "x".repeat(100 * 1024 + 1) }])])).toMatchObject({ status: 413 });
    const fields = Array.from({ length: 1001 }, (_, i) => ({ name: `a${i}`, value: "1" }));
    expect(await post("/viewer", multipartType, [multipart(fields)])).toMatchObject({ status: 413 });
    const whole = multipart([{ name: "a", value: "x" }]);
    expect(await post("/viewer", multipartType, [whole.subarray(0, whole.length - 10)])).toMatchObject({ status: 400, body: "What was sent could not be read." });
    expect(await post("/viewer", multipartType, [Buffer.from("not multipart at all")])).toMatchObject({ status: 400 });
  });

  it("a chunked multipart body past the cap gets 413, even when its file is cut", async () => {
    const reply = await post("/viewer", multipartType, [Buffer.from('--xyzBOUNDARYxyz\r\nContent-Disposition: form-data; name="f"; filename="a.pdf"\r\n\r\n'), ...repeat(Buffer.alloc(64 * 1024, 32), 200)]);
    expect(reply.status).toBe(413);
  });

  it("does not answer, nor hand on, a body whose client went away", async () => {
    const before = reached.length;
    await new Promise<void>((resolve) => {
      const request = http.request({ port, path: "/auth/sign-in", method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", "content-length": "1000" } });
      request.on("error", () => resolve());
      request.on("response", () => resolve());
      request.write("email=a");
      setTimeout(() => request.destroy(), 100);
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reached.length).toBe(before);
    // The server is still there.
    expect((await post("/x", "application/x-www-form-urlencoded", [Buffer.from("a=1")])).status).toBe(200);
  });
});
