import { readFileSync } from "node:fs";
import { type RawOutcome, rawRequest, requestBytes } from "./raw-http";

// Malformed requests against every route of app/routes.ts and /viewer: random methods, hosts, headers,
// content types, bodies and truncations. No response may be a 5xx, and none may hang.
// Used by tests/e2e/fuzz.spec.ts (2,000 requests in CI) and `npm run fuzz` (scripts/fuzz.ts, 20,000).

const id = "00000000-0000-4000-8000-000000000000";

/** Addresses per route module of app/routes.ts (a test checks that every module has some). */
export const fuzzTargets: Record<string, string[]> = {
  "routes/home.tsx": ["/", "/_root.data", "/?index"],
  "routes/support.contact-us.tsx": ["/support/contact-us", "/support/contact-us.data"],
  "routes/legal.terms-and-conditions.tsx": ["/legal/terms-and-conditions"],
  "routes/legal.privacy-policies.tsx": ["/legal/privacy-policies"],
  "routes/about.tsx": ["/about", "/about/"],
  "routes/auth.sign-out.ts": ["/auth/sign-out"],
  "routes/session.stay-signed-in.ts": ["/session/stay-signed-in", "/session/status"],
  "routes/auth.tsx": ["/auth"],
  "routes/auth.sign-in.tsx": ["/auth/sign-in", "/auth/sign-in.data"],
  "routes/auth.sign-in.verify-2fa.tsx": ["/auth/sign-in/verify-2fa"],
  "routes/auth.sign-in.recovery-code.tsx": ["/auth/sign-in/recovery-code"],
  "routes/auth.sign-up.tsx": ["/auth/sign-up", "/auth/sign-up.data"],
  "routes/auth.sign-up.email-sent.tsx": ["/auth/sign-up/email-sent"],
  "routes/auth.sign-up.password.tsx": ["/auth/sign-up/password?token=abc", "/auth/sign-up/password"],
  "routes/auth.setup-2fa.tsx": ["/auth/setup-2fa"],
  "routes/auth.reset-password.tsx": ["/auth/reset-password"],
  "routes/auth.reset-password.check-email.tsx": ["/auth/reset-password/check-email"],
  "routes/auth.reset-password.password.tsx": ["/auth/reset-password/password?token=abc"],
  "routes/auth.reset-password.successful.tsx": ["/auth/reset-password/successful"],
  "routes/auth.email-verify-issue.tsx": ["/auth/email-verify-issue"],
  "routes/auth.account-deleted.tsx": ["/auth/account-deleted", "/auth/account-deleted.data"],
  "routes/account.tsx": ["/account/"],
  "routes/account._index.ts": ["/account"],
  "routes/account.dashboard.tsx": ["/account/dashboard"],
  "routes/account.edit-profile.tsx": ["/account/edit-profile"],
  "routes/account.change-password.tsx": ["/account/change-password"],
  "routes/account.recovery-codes.tsx": ["/account/recovery-codes", "/account/recovery-codes?used=1"],
  "routes/account.authenticator.tsx": ["/account/authenticator"],
  "routes/account.my-data.tsx": ["/account/my-data", "/account/my-data?wait=5", "/account/my-data?wait=x", "/account/my-data.data"],
  "routes/account.my-data.download.ts": ["/account/my-data/download"],
  "routes/account.delete-account.tsx": ["/account/delete-account", "/account/delete-account.data"],
  "routes/account.interview.tsx": ["/account/interview"],
  "routes/account.interview.$interviewId.delete.tsx": [`/account/interview/${id}/delete`, "/account/interview/x/delete"],
  "routes/account.interview.$interviewId.download.ts": [`/account/interview/${id}/download`],
  "routes/account.interview.$interviewId.correct.ts": [`/account/interview/${id}/correct`, "/account/interview/x/correct"],
  "routes/account.interview.$interviewId.answers.tsx": [`/account/interview/${id}/answers`, "/account/interview/x/answers"],
  "routes/account.interview.$interviewId.sign.tsx": [`/account/interview/${id}/sign`, "/account/interview/x/sign", `/account/interview/${id}/sign.data`],
  "routes/account.interview.$interviewId.signed.ts": [`/account/interview/${id}/signed`, "/account/interview/x/signed"],
  "routes/account.interview.$interviewId.help.tsx": [`/account/interview/${id}/help`, "/account/interview/x/help", `/account/interview/${id}/help.data`],
  "routes/help.tsx": ["/help/"],
  "routes/help._index.tsx": ["/help", "/help?status=taken&country=1&issue=x&language=%E0", "/help?status=closed&country=99999999999", "/help.data"],
  "routes/help.requests.$shareId.tsx": [`/help/requests/${id}`, "/help/requests/x", `/help/requests/${id}.data`],
  "routes/help.requests.$shareId.answers.tsx": [`/help/requests/${id}/answers`, "/help/requests/x/answers"],
  "routes/help.requests.$shareId.document.ts": [`/help/requests/${id}/document`],
  "routes/help.requests.$shareId.files.$attachmentId.ts": [`/help/requests/${id}/files/${id}`, "/help/requests/x/files/..%2f"],
  "routes/help.prepared._index.tsx": ["/help/prepared"],
  "routes/help.prepared.new.tsx": ["/help/prepared/new", "/help/prepared/new.data"],
  "routes/help.prepared.$interviewId.tsx": [`/help/prepared/${id}`, "/help/prepared/x"],
  "routes/help.prepared.$interviewId.cancel.tsx": [`/help/prepared/${id}/cancel`, "/help/prepared/x/cancel"],
  "routes/reminders.stop.tsx": ["/reminders/stop", "/reminders/stop?code=abc", `/reminders/stop?code=${"x".repeat(300)}`, "/reminders/stop.data?code=%"],
  "routes/sign.tsx": ["/sign", "/sign?code=abc", `/sign?code=${"x".repeat(300)}`, "/sign.data?code=%", "/sign?code=abc&intent=send"],
  "routes/sign.document.ts": ["/sign/document", "/sign/document?code=abc", `/sign/document?code=${"x".repeat(300)}`],
  "routes/invitation.tsx": ["/invitation", "/invitation?code=abc", `/invitation?code=${"x".repeat(300)}`, "/invitation.data?code=%"],
  "routes/admin.tsx": ["/admin/"],
  "routes/admin._index.tsx": ["/admin", "/admin.data"],
  "routes/admin.administrators.tsx": ["/admin/administrators", "/admin/administrators.data"],
  "routes/admin.audit.tsx": ["/admin/audit", "/admin/audit?page=-1", "/admin/audit?page=x"],
  "routes/admin.usage.tsx": ["/admin/usage", "/admin/usage.data"],
  "routes/admin.usage.$issueId.tsx": ["/admin/usage/1", "/admin/usage/0", "/admin/usage/x", "/admin/usage/99999999999", "/admin/usage/1.data"],
  "routes/admin.sources._index.tsx": ["/admin/sources", "/admin/sources.data"],
  "routes/admin.sources.new.tsx": ["/admin/sources/new", "/admin/sources/new.data"],
  "routes/admin.sources.$sourceId.tsx": ["/admin/sources/1", "/admin/sources/x", "/admin/sources/99999999999"],
  "routes/admin.sources.$sourceId.edit.tsx": ["/admin/sources/1/edit", "/admin/sources/x/edit"],
  "routes/admin.sources.$sourceId.delete.tsx": ["/admin/sources/1/delete", "/admin/sources/x/delete"],
  "routes/admin.languages.tsx": ["/admin/languages", "/admin/languages.data"],
  "routes/admin.reminders.tsx": ["/admin/reminders", "/admin/reminders.data"],
  "routes/admin.api.tsx": ["/admin/api", "/admin/api.data"],
  "routes/admin.ai-calls.tsx": ["/admin/ai-calls", "/admin/ai-calls?page=0", "/admin/ai-calls?page=x"],
  "routes/admin.webhooks.tsx": ["/admin/webhooks", "/admin/webhooks.data"],
  "routes/admin.webhooks.$endpointId.tsx": ["/admin/webhooks/00000000-0000-4000-8000-000000000000", "/admin/webhooks/x", "/admin/webhooks/x?confirm=delete", "/admin/webhooks/%00.data"],
  "routes/admin.content.tsx": ["/admin/content", "/admin/content.data"],
  "routes/admin.content.$section.$key.tsx": ["/admin/content/pages/home", "/admin/content/issues/new", "/admin/content/issues/x", "/admin/content/x/1"],
  "routes/admin.content.$section.$key.history.tsx": ["/admin/content/pages/about/history", "/admin/content/countries/99999/history"],
  "routes/admin.content.$section.$key.versions.$version.tsx": ["/admin/content/pages/home/versions/1", "/admin/content/pages/home/versions/x"],
  "routes/admin.content.$section.$key.delete.tsx": ["/admin/content/issues/1/delete", "/admin/content/pages/home/delete"],
  "routes/admin.content.$section.$key.in.$language.tsx": ["/admin/content/issues/1/in/fr", "/admin/content/pages/home/in/en", "/admin/content/issues/1/in/xx", "/admin/content/issues/1/in/fr/history"],
  "routes/admin.content.words.$key.tsx": ["/admin/content/words/ms", "/admin/content/words/en", "/admin/content/words/ms?key=x&q=%7B", "/admin/content/words/ms/versions/1"],
  "routes/admin.guides.tsx": ["/admin/guides", "/admin/guides.data"],
  "routes/admin.guides.$guideId.tsx": ["/admin/guides/letter-of-demand", "/admin/guides/Not%20An%20Id", "/admin/guides/nothing-here"],
  "routes/admin.guides.$guideId.versions.$version.tsx": ["/admin/guides/letter-of-demand/versions/1", "/admin/guides/letter-of-demand/versions/0", "/admin/guides/letter-of-demand/versions/x"],
  "routes/admin.guides.$guideId.versions.$version.download.ts": ["/admin/guides/letter-of-demand/versions/1/download", "/admin/guides/x/versions/99/download"],
  "routes/ai.rephrase.$interviewId.tsx": [`/ai/rephrase/${id}?variable=x&index=0`, "/ai/rephrase/x"],
  "routes/ai.document.$interviewId.tsx": [`/ai/document/${id}`, "/ai/document/x", `/ai/document/${id}.data`],
  "routes/issues.$issueId.tsx": ["/issues/1", "/issues/abc", "/issues/99999999999999999999"],
  "routes/issues.$issueId.interviews.tsx": ["/issues/1/interviews", `/issues/1/interviews/${id}`],
  "routes/issues.$issueId.interviews.start.tsx": ["/issues/1/interviews/start", "/issues/abc/interviews/start", `/issues/2/interviews/${id}/answer-file`, "/issues/2/interviews/x/answer-file"],
  "routes/issues.$issueId.understand.tsx": ["/issues/1/understand", "/issues/abc/understand", `/issues/1/understand?interview=${id}`, "/issues/1/understand.data"],
  "routes/preview.$guideId.tsx": ["/preview/case-summary", "/preview/..%2f", "/preview/case-summary?version=1", "/preview/case-summary?version=x"],
  "routes/interview-guides.$guideId.ts": ["/interview-guides/case-summary", "/interview-guides/none"],
  "routes/assemble.ts": ["/assemble"],
  "routes/interviews.$interviewId.answers.ts": [`/interviews/${id}/answers`],
  "routes/attachments.$attachmentId.ts": [`/attachments/${id}`, "/attachments/x.pdf"],
  "routes/attachments.$attachmentId.info.ts": [`/attachments/${id}/info`],
  "routes/api.v1.$.ts": [
    "/api/v1/openapi.json",
    "/api/v1/issues?limit=x&cursor=%",
    "/api/v1/guides/..%2f",
    "/api/v1/prepared-interviews",
    `/api/v1/shared-interviews/${id}/answers/anx`,
    `/api/v1/shared-interviews/${id}/replies`,
    "/api/v1/nothing",
    "/api/v1/issues.data",
  ],
  "routes/healthz.ts": ["/healthz"],
  "routes/not-found.tsx": ["/no/such/page", "/%E0%A4%A", "/a%00b", "//double", "/assets/none.js", "/favicon.ico", "/x.data"],
  viewer: ["/viewer", "/viewer?issueId=1", `/viewer?issueId=1&interviewId=${id}`, "/viewer?preview=case-summary", "/viewer?preview=1&guideId=case-summary&version=1", "/viewer?preview=1&guideId=case-summary&version=0"],
};

/** The route modules app/routes.ts declares. */
export function declaredRouteModules(): string[] {
  const source = readFileSync("app/routes.ts", "utf8");
  return [...new Set([...source.matchAll(/"(routes\/[^"]+)"/g)].map((match) => match[1]!))];
}

/** A small seeded random source (mulberry32), so a failing run can be repeated with its seed. */
export function randomSource(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)]!;
  return { next, int, pick, chance: (p: number) => next() < p };
}

type Random = ReturnType<typeof randomSource>;

const methods = ["POST", "POST", "POST", "POST", "GET", "GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "PROPFIND", "CONNECT"];
const hosts = ["localhost", "127.0.0.1", "", " ", "a b", "[::1]", "exa%mple", "x".repeat(300), "localhost:99999", "localhost:abc", "@evil", "a/b", "ünïcode"];
const fieldNames = ["email", "password", "confirmPassword", "code", "firstName", "lastName", "message", "name", "back", "_intent", "answer", "variable", "index", "guideId", "answers", "issueId", "interviewId", "page", "button", "x", "intent", "share", "body", "about", "countries", "issues", "phoneCountry", "phoneNumber", "use", "answerFile", "offerReused", "url", "events", "delivery", "confirmed", "description"];

function value(random: Random): string {
  // Never an "@": no fuzzed form is a valid email, so the fuzz sends no email and opens no account.
  return random.pick([
    "",
    "1",
    "yes",
    "%zz",
    "%",
    "a+b",
    "\u0000",
    "é✓",
    "x".repeat(random.int(5000)),
    "{}",
    "[1,2]",
    String(random.int(1e9)),
    "-1",
    "../../etc/passwd",
  ]);
}

function bytes(random: Random, length: number): Buffer {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) out[i] = random.int(256);
  return out;
}

function urlEncoded(random: Random): Buffer {
  const pairs = Array.from({ length: random.int(8) }, () => `${random.pick(fieldNames)}=${random.chance(0.5) ? encodeURIComponent(value(random)) : value(random)}`);
  return Buffer.from(pairs.join(random.pick(["&", "&&", ";", "&="])), "utf8");
}

function multipartBody(random: Random, boundary: string): Buffer {
  const parts: Buffer[] = [];
  for (let i = random.int(5); i > 0; i--) {
    const file = random.chance(0.3);
    const disposition = random.pick([
      `form-data; name="${random.pick(fieldNames)}"${file ? `; filename="${random.pick(["a.pdf", "", "../x.doc", "é.docx"])}"` : ""}`,
      "form-data",
      "attachment; name=x",
      "",
    ]);
    const content = file ? Buffer.concat([Buffer.from(random.pick(["%PDF-1.4\n", "GIF89a", "PK\u0003\u0004", ""])), bytes(random, random.int(2000))]) : Buffer.from(value(random));
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${file ? "Content-Type: application/pdf\r\n" : ""}\r\n`), content, Buffer.from("\r\n"));
  }
  if (random.chance(0.8)) parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

export type FuzzCase = { method: string; path: string; bytes: Buffer; endAfterWrite: boolean; label: string };

/** Whom the requests come from, and where they go: by default nobody's, to every target. */
export interface FuzzAs {
  /** A signed-in session's Cookie header, sent with nearly every request (the code behind the sign-in is fuzzed too). */
  cookie?: string;
  /** An Authorization header (the API's bearer token), sent with nearly every request. */
  authorization?: string;
  paths?: string[];
}

/** One malformed (or, now and then, well-formed) request. */
export function fuzzCase(random: Random, as: FuzzAs = {}): FuzzCase {
  const method = random.pick(methods);
  const paths = as.paths ?? Object.values(fuzzTargets).flat();
  let path = random.pick(paths);
  if (random.chance(0.1)) path += random.pick(["?a=%", "?x=1&x=2", "#frag", "?" + "q".repeat(3000), "/..", "%2e%2e/", "?_data=routes%2Fhome"]);
  const headers: [string, string][] = [];
  if (random.chance(0.93)) headers.push(["Host", random.chance(0.7) ? "localhost" : random.pick(hosts)]);
  if (random.chance(0.2)) headers.push(["Origin", random.pick(["http://localhost", "null", "https://evil.example", ""])]);
  if (as.authorization && random.chance(0.9)) headers.push(["Authorization", as.authorization]);
  if (as.cookie && random.chance(0.9)) headers.push(["Cookie", as.cookie]);
  else if (random.chance(0.2)) headers.push(["Cookie", random.pick(["__session=abc", "session=x.y", "a", "=;=;", "__Host-session=s%3Ax.y"])]);
  if (random.chance(0.2)) headers.push(["Accept-Encoding", random.pick(["gzip", "br", "*", "identity;q=0", "garbage"])]);
  if (random.chance(0.1)) headers.push(["Sec-Fetch-Dest", random.pick(["iframe", "document", ""])]);
  if (random.chance(0.1)) headers.push(["X-Forwarded-For", random.pick(["1.2.3.4", "garbage", "", "1.1.1.1, 2.2.2.2"])]);
  if (random.chance(0.1)) headers.push(["X-Forwarded-Host", random.pick(["evil.example:1", "", ":::"])]);
  if (random.chance(0.1)) headers.push(["Accept", random.pick(["text/html", "*/*", "application/json", ""])]);

  const boundary = random.pick(["xyzBOUNDARY", "----WebKitFormBoundaryabc", "a", "\"quoted\""]);
  const kind = random.pick(["urlencoded", "urlencoded", "multipart", "multipart", "json", "none", "text", "garbage", "bad-multipart"] as const);
  const contentType = {
    urlencoded: "application/x-www-form-urlencoded",
    multipart: `multipart/form-data; boundary=${boundary}`,
    json: "application/json",
    none: null,
    text: "text/plain",
    garbage: random.pick(["application/x-www-form-urlencoded;;;", "multipart/form-data; boundary=", ";", "x".repeat(500), "application/json; charset=bogus"]),
    "bad-multipart": random.pick(["multipart/form-data", "multipart/mixed; boundary=a", "multipart/form-data; boundary=\"unclosed"]),
  }[kind];
  if (contentType !== null) headers.push(["Content-Type", contentType]);
  let body: Buffer;
  if (kind === "urlencoded") body = urlEncoded(random);
  else if (kind === "multipart" || kind === "bad-multipart") body = multipartBody(random, boundary.replace(/"/g, ""));
  else if (kind === "json") body = Buffer.from(random.pick(['{"guideId":"case-summary","answers":"{}"}', '{"a":', "[]", "null", '"x"', JSON.stringify({ guideId: value(random) })]));
  else body = bytes(random, random.int(300));
  if (random.chance(0.01)) body = Buffer.concat([body, Buffer.alloc(6 * 1024 * 1024 + 10, 97)]);

  // How the body is framed: its length, a length that lies, chunked, chunked and cut, or none at all.
  const framing = random.pick(["length", "length", "length", "chunked", "longer", "shorter", "chunked-cut", "none"] as const);
  let endAfterWrite = false;
  let sent = body;
  if (framing === "length") headers.push(["Content-Length", String(body.length)]);
  if (framing === "longer") {
    headers.push(["Content-Length", String(body.length + 1 + random.int(1000))]);
    endAfterWrite = true;
  }
  if (framing === "shorter") headers.push(["Content-Length", String(Math.max(0, body.length - 1 - random.int(50)))]);
  if (framing === "chunked" || framing === "chunked-cut") {
    headers.push(["Transfer-Encoding", "chunked"]);
    const chunked = Buffer.concat([Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")]);
    sent = framing === "chunked" ? chunked : chunked.subarray(0, random.int(chunked.length));
    endAfterWrite = framing === "chunked-cut";
  }
  if (random.chance(0.05)) headers.push(["Content-Length", random.pick(["-1", "abc", "1e3", "99999999999999999999"])]);
  if (random.chance(0.03)) headers.reverse();
  if (random.chance(0.05)) endAfterWrite = true;
  const cut = random.chance(0.05) ? random.int(sent.length + 1) : sent.length;
  return {
    method,
    path,
    bytes: requestBytes(method, path, headers, sent.subarray(0, cut)),
    endAfterWrite: endAfterWrite || cut < sent.length,
    label: `${method} ${path.slice(0, 80)} ${kind}/${framing}${cut < sent.length ? "/cut" : ""}`,
  };
}

export type FuzzResult = { total: number; byStatus: Record<string, number>; failures: { label: string; outcome: RawOutcome }[] };

/** Sends `count` fuzzed requests, `concurrency` at a time. A status ≥ 500 or a hang is a failure. */
export async function runFuzz(port: number, count: number, seed: number, concurrency = 8, as: FuzzAs = {}): Promise<FuzzResult> {
  const random = randomSource(seed);
  const result: FuzzResult = { total: 0, byStatus: {}, failures: [] };
  let next = 0;
  async function worker() {
    while (next < count) {
      next++;
      const request = fuzzCase(random, as);
      const outcome = await rawRequest(port, request.bytes, { endAfterWrite: request.endAfterWrite });
      const key = outcome.status === null ? outcome.outcome : String(outcome.status);
      result.byStatus[key] = (result.byStatus[key] ?? 0) + 1;
      result.total++;
      if (outcome.outcome === "hung" || (outcome.status ?? 0) >= 500) result.failures.push({ label: request.label, outcome });
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker));
  return result;
}
