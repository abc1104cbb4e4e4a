// The application's log (docs/decisions/0035-logs-metrics-traces.md): one JSON object per line on standard output
// (pino), a readable line in development. Every line written while a request is answered carries its request
// id. What is never written: email addresses, names, answers, tokens, client addresses. Code that logs passes
// facts (ids, counts, kinds), never a person's text; the line is scrubbed once more as it is written, in case
// an error message quotes a value (a PostgreSQL error's detail names the row's key).
import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What the lines of one request share, and what its request line reports. */
export interface RequestScope {
  requestId: string;
  /** The route pattern that answered (`/issues/:issueId`), not the path: set by whatever routes the request. */
  route: string | null;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/** Runs `answer` (and everything it starts) as part of one request: its log lines carry the request id. */
export function inRequestScope<T>(scope: RequestScope, answer: () => T): T {
  return requestScope.run(scope, answer);
}

/** The request being answered, if any. */
export function currentRequest(): RequestScope | undefined {
  return requestScope.getStore();
}

/**
 * What the tracing module (server/tracing.ts, loaded only with OTEL_EXPORTER_OTLP_ENDPOINT) adds: the route
 * pattern on the request's span, and the trace's ids on the log lines written within it.
 */
export interface TracingBridge {
  routeNamed(route: string): void;
  traceFields(): Record<string, string> | undefined;
}

let tracing: TracingBridge | null = null;

export function bridgeTracing(bridge: TracingBridge): void {
  tracing = bridge;
}

/** Names the route pattern answering the current request, for its request line, metrics and span. */
export function setRequestRoute(route: string): void {
  const scope = requestScope.getStore();
  if (scope) scope.route = route;
  tracing?.routeNamed(route);
}

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** A secret handed in a URL's query or a form: a sign-up link's token, a key. */
const SECRET_PARAMETER = /([?&;](?:token|code|key|secret|password|signature)=)[^&\s"\\]+/gi;

/** The text with every email address and every secret in a query string replaced. */
export function scrub(text: string): string {
  let clean = text;
  if (clean.includes("@")) clean = clean.replace(EMAIL, "[email]");
  if (clean.includes("=")) clean = clean.replace(SECRET_PARAMETER, "$1[hidden]");
  return clean;
}

/**
 * An error as a log line shows it: its kind, message, code and stack (and its cause's), never its other fields:
 * a driver's error carries the statement's values (PostgreSQL's `detail`: "Key (email_key)=(…) already exists").
 */
export function serializeError(error: unknown, depth = 0): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  const shown: Record<string, unknown> = { type: error.name, message: error.message };
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string" || typeof code === "number") shown.code = code;
  if (error.stack) shown.stack = error.stack;
  if (error.cause !== undefined && depth < 3) shown.cause = serializeError(error.cause, depth + 1);
  return shown;
}

export type LogFields = Record<string, unknown>;

/** What code writes to the log through: a message, and facts about it (ids, counts, `err` for an error). */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

interface Destination {
  write(line: string): void;
}

function level(): LogLevel {
  const wanted = process.env.LOG_LEVEL?.trim().toLowerCase();
  if (wanted && (LOG_LEVELS as readonly string[]).includes(wanted)) return wanted as LogLevel;
  // Tests see log lines only when they ask for them (captureLogs).
  return process.env.VITEST ? "silent" : "info";
}

function createRoot(destination: Destination, logLevel: LogLevel): pino.Logger {
  return pino(
    {
      level: logLevel,
      base: { pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: serializeError },
      mixin: () => {
        const scope = requestScope.getStore();
        const fields: Record<string, string> = scope ? { requestId: scope.requestId } : {};
        return tracing ? Object.assign(fields, tracing.traceFields()) : fields;
      },
      hooks: { streamWrite: scrub },
    },
    destination,
  );
}

/** pino tells a destination marked with this the level of the line it is about to write (`lastLevel`). */
const NEEDS_METADATA: symbol = pino.symbols.needsMetadataGsym;
/** pino's number for warn: a line at this level or above is written at once. */
const WARN_LEVEL = 40;
/** What may wait for the end of the turn; more is written at once. */
const COALESCED_MAX = 64 * 1024;

/**
 * The lines written in one turn of the event loop, given to `target` together in one write at the turn's end
 * (setImmediate), not one write each: a viewer step writes two request lines, and under load many requests end
 * in the same turn, so a system call per line cost more than the rest of the line (docs/decisions/0035).
 * A line of warn or above goes out at once (with what waits before it, in order), so does what waits once it
 * reaches 64 kB, and `flush` writes what waits (server.js's exit, and process exit).
 */
export function coalescedDestination(target: Destination): Destination & { flush(done?: () => void): void } {
  let waiting = "";
  let scheduled = false;
  // pino's logger.flush(callback) calls it with a callback.
  const flush = (done?: () => void) => {
    scheduled = false;
    if (waiting) {
      const text = waiting;
      waiting = "";
      target.write(text);
    }
    done?.();
  };
  const destination = {
    [NEEDS_METADATA]: true,
    lastLevel: 0,
    write(line: string) {
      waiting += line;
      if (destination.lastLevel >= WARN_LEVEL || waiting.length >= COALESCED_MAX) return void flush();
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => flush());
      }
    },
    flush,
  };
  return destination;
}

/**
 * Where lines go: JSON on standard output, through pino's synchronous destination (a write is out when it
 * returns), the lines of one turn of the event loop in one write (coalescedDestination): an error or a warning
 * at once, and whatever waits when the process exits, so only a process killed outright (SIGKILL, out of
 * memory) can lose the info lines of its last turn (docs/decisions/0035). In development, a readable line instead.
 */
function standardOutput(): Destination {
  if (process.env.NODE_ENV === "development") return { write: (line) => void process.stdout.write(readableLine(line)) };
  const destination = coalescedDestination(pino.destination({ dest: 1, sync: true }));
  flushAtExit(destination.flush);
  return destination;
}

/**
 * One exit listener per process, whatever reloads this module (the tests import it afresh for each file): it
 * writes what the latest standard-output destination holds.
 */
const AT_EXIT = Symbol.for("legal-self-help.log.flushAtExit");
function flushAtExit(flush: () => void): void {
  const holder = globalThis as { [AT_EXIT]?: () => void };
  if (!holder[AT_EXIT]) process.on("exit", () => holder[AT_EXIT]?.());
  holder[AT_EXIT] = flush;
}

const shownFirst = new Set(["level", "time", "pid", "msg", "component", "requestId", "err"]);

/** A JSON line as a person reads it: "12:00:01.123 WARN  [mail] message key=value … (request id)", then the stack. */
export function readableLine(json: string): string {
  const line = JSON.parse(json) as Record<string, unknown> & { err?: { stack?: string; message?: string } };
  const time = typeof line.time === "string" ? line.time.slice(11, 23) : "";
  const fields = Object.entries(line)
    .filter(([key]) => !shownFirst.has(key))
    .map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const parts = [time, String(line.level).toUpperCase().padEnd(5), line.component ? `[${String(line.component)}]` : "", String(line.msg ?? ""), ...fields];
  if (line.requestId) parts.push(`(${String(line.requestId)})`);
  const stack = line.err?.stack ?? line.err?.message;
  return `${parts.filter(Boolean).join(" ")}\n${stack ? `${stack}\n` : ""}`;
}

let root = createRoot(standardOutput(), level());

/**
 * For the operator commands (server/cli.ts), whose standard output is the command's answer in plain text: what
 * the application logs while a command runs goes to standard error instead.
 */
export function logToStandardError(): void {
  root = createRoot(process.env.NODE_ENV === "development" ? { write: (line) => void process.stderr.write(readableLine(line)) } : pino.destination({ dest: 2, sync: true }), level());
}

/** The log of one part of the application: its lines carry `component`. */
export function logger(component: string): Logger {
  const write = (method: "debug" | "info" | "warn" | "error") => (message: string, fields?: LogFields) =>
    root[method](fields ? { component, ...fields } : { component }, message);
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

/** The line written when a request has been answered (server/request-observation.ts): the busiest line. */
export function logRequestLine(line: { requestId: string; method: string; route: string; status: number; ms: number; bytes?: number; aborted?: boolean }): void {
  root.info(line, "request");
}

/** For tests: lines are kept instead of written, from `level` up, until `restore()`. */
export function captureLogs(logLevel: LogLevel = "debug"): { lines: () => Record<string, unknown>[]; text: () => string; restore: () => void } {
  const previous = root;
  const raw: string[] = [];
  root = createRoot({ write: (line) => void raw.push(line) }, logLevel);
  return {
    lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>),
    text: () => raw.join(""),
    restore: () => void (root = previous),
  };
}
