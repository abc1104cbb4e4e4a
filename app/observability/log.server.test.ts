import { describe, expect, it } from "vitest";
import pino from "pino";
import { captureLogs, coalescedDestination, inRequestScope, logger, logRequestLine, readableLine, scrub, serializeError, setRequestRoute, currentRequest } from "./log.server";

const log = logger("test");

function captured(write: () => void) {
  const capture = captureLogs();
  try {
    write();
    return { lines: capture.lines(), text: capture.text() };
  } finally {
    capture.restore();
  }
}

describe("the log", () => {
  it("writes one JSON object per line: level by name, ISO time, process id, component, message and facts", () => {
    const { lines, text } = captured(() => log.info("a message was stored", { messageId: "m-1" }));
    expect(text.endsWith("\n")).toBe(true);
    expect(text.trim().split("\n")).toHaveLength(1);
    expect(lines[0]).toEqual({ level: "info", time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), pid: process.pid, component: "test", messageId: "m-1", msg: "a message was stored" });
  });

  it("carries the request id into every line written while the request is answered, however deep and however late", async () => {
    const { lines } = await (async () => {
      const capture = captureLogs();
      try {
        await inRequestScope({ requestId: "req-42", route: null }, async () => {
          log.info("first");
          await new Promise((resolve) => setTimeout(resolve, 5));
          await Promise.resolve().then(() => log.warn("after a timer and a promise"));
        });
        log.info("outside any request");
        return { lines: capture.lines() };
      } finally {
        capture.restore();
      }
    })();
    expect(lines.map((line) => [line.msg, line.requestId])).toEqual([
      ["first", "req-42"],
      ["after a timer and a promise", "req-42"],
      ["outside any request", undefined],
    ]);
  });

  it("lets whatever routes the request name its route pattern", () => {
    inRequestScope({ requestId: "r", route: null }, () => {
      setRequestRoute("/issues/:issueId");
      expect(currentRequest()).toEqual({ requestId: "r", route: "/issues/:issueId" });
    });
    expect(currentRequest()).toBeUndefined();
  });

  it("writes the request line with its facts and nothing else", () => {
    const { lines } = captured(() => logRequestLine({ requestId: "r-1", method: "POST", route: "/viewer", status: 302, ms: 3.4 }));
    expect(lines[0]).toEqual({ level: "info", time: expect.any(String), pid: process.pid, requestId: "r-1", method: "POST", route: "/viewer", status: 302, ms: 3.4, msg: "request" });
  });

  it("never writes an email address or a token from a query string, wherever it appears in a line", () => {
    const error = Object.assign(new Error("duplicate key value violates unique constraint for ana.lim+test@example.org"), {
      detail: "Key (email_key)=(ana.lim+test@example.org) already exists.",
      code: "23505",
    });
    const { text, lines } = captured(() => {
      log.error("sign-up failed for ana.lim+test@example.org", { err: error, link: "/auth/sign-up/password?token=Zm9vYmFy&step=2", address: "Ana.Lim@Mail.Example.CO.uk" });
      log.warn("refused POST /reset?code=123456 400: bad", { note: "key=value pairs without a secret stay" });
    });
    expect(text).not.toMatch(/ana\.lim/i);
    expect(text).not.toContain("Zm9vYmFy");
    expect(text).not.toContain("123456");
    expect(lines[0]).toMatchObject({
      msg: "sign-up failed for [email]",
      link: "/auth/sign-up/password?token=[hidden]&step=2",
      address: "[email]",
      err: { type: "Error", code: "23505", message: "duplicate key value violates unique constraint for [email]" },
    });
    // A driver's error keeps its kind, message, code and stack; its other fields (the row's values) are left out.
    expect(lines[0]!.err).not.toHaveProperty("detail");
    expect(lines[1]).toMatchObject({ msg: "refused POST /reset?code=[hidden] 400: bad", note: "key=value pairs without a secret stay" });
  });

  it("shows an error's cause, and something that is not an error as its text", () => {
    const wrapped = new Error("the upload failed", { cause: Object.assign(new Error("bucket unreachable"), { code: "ECONNREFUSED", hostname: "s3.internal" }) });
    expect(serializeError(wrapped)).toMatchObject({ message: "the upload failed", cause: { message: "bucket unreachable", code: "ECONNREFUSED" } });
    expect(serializeError(wrapped).cause).not.toHaveProperty("hostname");
    expect(serializeError("plain text")).toEqual({ message: "plain text" });
  });

  it("scrubs only what it must", () => {
    expect(scrub("GET /issues/2 took 12 ms")).toBe("GET /issues/2 took 12 ms");
    expect(scrub("to someone@localhost and a@b.c")).toBe("to someone@localhost and a@b.c");
    expect(scrub("write to help@legal-aid.example.org.au today")).toBe("write to [email] today");
    expect(scrub("?password=hunter2&secret=s&signature=abc&key=k")).toBe("?password=[hidden]&secret=[hidden]&signature=[hidden]&key=[hidden]");
  });

  it("is silent under the tests unless asked, and writes nothing below its level", () => {
    const { lines } = (() => {
      const capture = captureLogs("warn");
      try {
        log.debug("not this");
        log.info("nor this");
        log.warn("this");
        return { lines: capture.lines() };
      } finally {
        capture.restore();
      }
    })();
    expect(lines.map((line) => line.msg)).toEqual(["this"]);
  });

  it("writes the lines of one turn of the event loop in one write at its end; a warning or an error at once, in order", async () => {
    const writes: string[] = [];
    const destination = coalescedDestination({ write: (text) => void writes.push(text) });
    const root = pino({ base: null, timestamp: false }, destination);
    root.info("first");
    root.info("second");
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes.map((text) => text.split("\n").filter(Boolean).map((line) => JSON.parse(line).msg))).toEqual([["first", "second"]]);

    root.info("waits");
    root.error("goes at once");
    expect(writes.slice(1).map((text) => text.split("\n").filter(Boolean).map((line) => JSON.parse(line).msg))).toEqual([["waits", "goes at once"]]);
    root.info("written by flush");
    destination.flush();
    expect(writes).toHaveLength(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toHaveLength(3);
  });

  it("reads as a plain line in development", () => {
    const json = JSON.stringify({ level: "warn", time: "2026-11-25T10:00:01.123Z", pid: 7, component: "mail", requestId: "r-9", msg: "stored", messageId: "m-1", err: { message: "boom", stack: "Error: boom\n    at here" } });
    expect(readableLine(json)).toBe("10:00:01.123 WARN  [mail] stored messageId=m-1 (r-9)\nError: boom\n    at here\n");
    expect(readableLine(JSON.stringify({ level: "info", time: "2026-11-25T10:00:02.000Z", pid: 7, requestId: "r", method: "GET", route: "/", status: 200, ms: 1.5, msg: "request" }))).toBe(
      "10:00:02.000 INFO  request method=GET route=/ status=200 ms=1.5 (r)\n",
    );
  });
});
