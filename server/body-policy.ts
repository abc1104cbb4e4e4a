import busboy from "busboy";
import type express from "express";
import {
  ALLOWED_METHODS,
  BODY_IDLE_TIMEOUT_MS,
  MAX_BODY_BYTES,
  MAX_FIELD_BYTES,
  MAX_FIELD_NAME_BYTES,
  MAX_FIELDS,
  MAX_FILE_BYTES,
  MAX_FILES,
  type Refusal,
  bodyKind,
  messages,
  refusalLine,
  tooLarge,
  unreadable,
} from "~/security/request-guard.server";
import { logger } from "~/observability/log.server";

const log = logger("server");

/**
 * A POST body, read once at the edge within the limits (docs/decisions/0014-request-limits.md): the bytes of
 * a URL-encoded form or of JSON (`POST /assemble` only), or a multipart form parsed as it streamed. Kept in
 * `res.locals.body` for the viewer and the router adapter (server/router-handler.ts).
 */
export type Body = { kind: "urlencoded"; bytes: Buffer } | { kind: "json"; bytes: Buffer } | { kind: "multipart"; form: FormData };

export function postedBody(res: express.Response): Body | undefined {
  return res.locals.body as Body | undefined;
}

/** Answers an expected refusal in plain text and logs it in one line. */
export function refuse(req: express.Request, res: express.Response, refused: Refusal, close = false): void {
  log.warn(refusalLine({ method: req.method, path: req.originalUrl }, refused.status, refused.reason));
  if (res.headersSent || res.destroyed) return void res.destroy();
  if (refused.status === 405) res.set("Allow", ALLOWED_METHODS);
  if (close) closeAfterAnswer(req, res);
  // The organisation's API answers every error as RFC 9457 problem details (app/api/problem.server.ts).
  if (req.path.startsWith("/api/")) {
    res.status(refused.status).type("application/problem+json").send(JSON.stringify({ type: "about:blank", title: refused.message, status: refused.status, detail: refused.reason }));
    return;
  }
  res.status(refused.status).type("text/plain; charset=utf-8").send(refused.message);
}

/** How long the rest of a refused body is read (and dropped) after the answer, before the connection is cut. */
const LINGER_MS = 2_000;

/**
 * The connection closes after the answer, and the rest of the body is never buffered. It is read and dropped
 * for a moment after the answer (a "lingering close", as nginx does): a socket closed while the client is still
 * sending is reset, and the reset can reach the client before the answer does, so it would never see its 413.
 */
function closeAfterAnswer(req: express.Request, res: express.Response): void {
  res.set("Connection", "close");
  if (req.complete) return;
  req.removeAllListeners("data");
  req.resume();
  const socket = req.socket as typeof req.socket & { destroySoon?: () => void };
  // Node's server calls destroySoon() once the last answer on a connection is sent.
  socket.destroySoon = () => {
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    socket.once("close", () => clearTimeout(timer));
  };
}

/** Reads every POST body within the limits before any route sees it; other methods pass untouched. */
export function bodyPolicy(req: express.Request, res: express.Response, next: express.NextFunction): void {
  if (req.method !== "POST") return next();
  const kind = bodyKind(req.path, req.get("content-type"));
  if (typeof kind !== "string") return refuse(req, res, kind, true);
  readBody(req, kind).then(
    (read) => {
      if ("status" in read) return refuse(req, res, read, true);
      res.locals.body = read;
      next();
    },
    // The client went away (or the socket failed) before the body arrived: there is no one to answer.
    () => void req.socket.destroy(),
  );
}

class Gone extends Error {}

/** Resolves with the body or a refusal; rejects (Gone) when the client is gone. Stops reading at a refusal. */
function readBody(req: express.Request, kind: Body["kind"]): Promise<Body | Refusal> {
  return new Promise((resolve, reject) => {
    let settled = false;
    let received = 0;
    const chunks: Buffer[] = [];
    const created = kind === "multipart" ? multipart(req, (result) => settle(result)) : null;
    if (created && "status" in created) return resolve(created);
    const parser = created as busboy.Busboy | null;

    const timer = setTimeout(() => settle(timeout()), BODY_IDLE_TIMEOUT_MS);
    function settle(result: Body | Refusal | Gone) {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.off("data", onData).off("end", onEnd).off("error", onGone).off("close", onClose);
      // Refused: nothing more is taken in (refuse() closes the connection after the answer).
      if (result instanceof Gone || "status" in result) parser?.destroy();
      if (result instanceof Gone) reject(result);
      else resolve(result);
    }
    function onData(chunk: Buffer) {
      received += chunk.length;
      if (received > MAX_BODY_BYTES) return settle(tooLarge("body over the limit"));
      timer.refresh();
      if (!parser) return void chunks.push(chunk);
      if (!parser.write(chunk)) {
        req.pause();
        parser.once("drain", () => !settled && req.resume());
      }
    }
    function onEnd() {
      if (parser) return void parser.end();
      const bytes = Buffer.concat(chunks, received);
      if (kind === "json" && !isJson(bytes)) return settle(unreadable("malformed JSON"));
      settle(kind === "json" ? { kind, bytes } : { kind: "urlencoded", bytes });
    }
    function onGone() {
      settle(new Gone());
    }
    function onClose() {
      if (!req.complete) settle(new Gone());
    }
    req.on("data", onData).on("end", onEnd).on("error", onGone).on("close", onClose);
  });
}

function timeout(): Refusal {
  return { status: 408, message: messages.timeout, reason: "body stopped arriving" };
}

function isJson(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString("utf8"));
    return true;
  } catch {
    return false;
  }
}

/**
 * A streaming multipart parser (busboy) with the limits. A file is cut at `MAX_FILE_BYTES` and handed on cut,
 * so the viewer's own size check refuses it with its message; past the other limits the body is refused (413).
 */
function multipart(req: express.Request, done: (result: Body | Refusal) => void): busboy.Busboy | Refusal {
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      defParamCharset: "utf8",
      limits: {
        fileSize: MAX_FILE_BYTES,
        files: MAX_FILES,
        fields: MAX_FIELDS,
        fieldSize: MAX_FIELD_BYTES,
        fieldNameSize: MAX_FIELD_NAME_BYTES,
        parts: MAX_FILES + MAX_FIELDS,
      },
    });
  } catch {
    return unreadable("malformed multipart header");
  }
  // In the order sent: a file's place is kept while its bytes arrive.
  const entries: [string, string | File | null][] = [];
  let pending = 0;
  let closed = false;
  let failed = false;
  const fail = (refused: Refusal) => {
    failed = true;
    done(refused);
  };
  const finish = () => {
    if (!closed || pending > 0 || failed) return;
    const form = new FormData();
    for (const [name, value] of entries) if (value !== null) form.append(name, value);
    done({ kind: "multipart", form });
  };
  parser.on("field", (name, value, info) => {
    if (info.nameTruncated || info.valueTruncated) return fail(tooLarge("a field over the limit"));
    entries.push([name, value]);
  });
  parser.on("file", (name, stream, info) => {
    pending++;
    const entry: [string, File | null] = [name, null];
    entries.push(entry);
    const parts: Buffer[] = [];
    // Destroyed with the parser when the body is refused: nothing more to do with it.
    stream.on("error", () => undefined);
    stream.on("data", (chunk: Buffer) => parts.push(chunk));
    stream.on("close", () => {
      pending--;
      entry[1] = new File(parts as Uint8Array<ArrayBuffer>[], info.filename ?? "", { type: info.mimeType });
      finish();
    });
  });
  parser.on("filesLimit", () => fail(tooLarge("too many files")));
  parser.on("fieldsLimit", () => fail(tooLarge("too many fields")));
  parser.on("partsLimit", () => fail(tooLarge("too many parts")));
  parser.on("error", () => fail(unreadable("malformed multipart")));
  parser.on("close", () => {
    closed = true;
    finish();
  });
  return parser;
}
