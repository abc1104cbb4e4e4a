import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { startInterview } from "~/a2j";
import { grantAdministrator, revokeAdministrator } from "~/administration/roles.server";
import { getGuide } from "~/guides/guides.server";
import { importGuide, readGuideFolder } from "~/guides/import.server";
import { shareInterview, stopSharing } from "~/help/shares.server";
import { loadInterview, saveInterview } from "~/interviews/interviews.server";
import { answerApi, openApiJson, routesOf } from "./dispatch.server";
import { endpoints } from "./endpoints.server";
import { authenticate, bearerToken, createToken, listTokens, revokeToken } from "./tokens.server";
import { limits } from "~/auth/rate-limit.server";
import { SCOPES } from "./scopes";

// The outbox files of these tests go to a scratch folder.
process.env.DATA_DIR = mkdtempSync(path.join(tmpdir(), "lsh-api-"));

const DAY = 86_400_000;
const actor = { id: null, email: "lead@example.org", address: "203.0.113.7" };
const global = globalThis as typeof globalThis & { __database?: TestDatabase };

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document that describes every endpoint of the table, with its scope", async () => {
    const document = JSON.parse(openApiJson());
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    for (const endpoint of endpoints) {
      const operation = document.paths[endpoint.path]?.[endpoint.method.toLowerCase()];
      expect(operation, `${endpoint.method} ${endpoint.path}`).toBeDefined();
      expect(operation.security).toEqual([{ bearer: [endpoint.scope] }]);
      expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(["401", "403", "429"]));
    }
    // The request body's schema is the one that validates it.
    const prepare = document.paths["/prepared-interviews"].post.requestBody.content["application/json"].schema;
    expect(prepare.required).toEqual(expect.arrayContaining(["issueId", "person"]));
    expect(prepare.additionalProperties).toBe(false);
  });

  it("matches paths to endpoints, parameters and all, and nothing else", () => {
    const routes = routesOf(endpoints);
    const match = (p: string) => routes.filter((route) => route.pattern.test(p)).map((route) => `${route.endpoint.method} ${route.endpoint.path}`);
    expect(match("/issues/12")).toEqual(["GET /issues/{issueId}"]);
    expect(match("/shared-interviews/abc/answers/anx")).toEqual(["GET /shared-interviews/{shareId}/answers/anx"]);
    expect(match("/help-requests/abc/replies")).toEqual(["GET /help-requests/{shareId}/replies", "POST /help-requests/{shareId}/replies"]);
    expect(match("/webhooks/abc")).toEqual(["GET /webhooks/{webhookId}", "POST /webhooks/{webhookId}", "DELETE /webhooks/{webhookId}"]);
    expect(match("/issues/12/extra")).toEqual([]);
  });

  it("reads only a well-formed bearer token", () => {
    expect(bearerToken("Bearer lsh_abc")).toBe("lsh_abc");
    expect(bearerToken("bearer   lsh_abc ")).toBe("lsh_abc");
    expect(bearerToken("Bearer abc")).toBeNull();
    expect(bearerToken("Basic lsh_abc")).toBeNull();
    expect(bearerToken(null)).toBeNull();
    expect(bearerToken(`Bearer lsh_${"a".repeat(300)}`)).toBeNull();
  });
});

describe.each(dialects)("the API on %s", (dialect) => {
  let handle: TestDatabase;
  const admin = { id: randomUUID(), email: "admin@example.org" };
  const ann = { id: randomUUID(), email: "ann@example.org" };
  const tokens: Record<string, string> = {};

  const call = async (method: string, p: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) => {
    const request = new Request(`http://localhost:3000/api/v1${p}`, {
      method,
      headers: {
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body !== undefined ? { "Content-Type": "application/json" } : {}),
        ...headers,
      },
      ...(body !== undefined ? { body: typeof body === "string" ? body : JSON.stringify(body) } : {}),
    });
    const response = await answerApi(request, "203.0.113.9");
    const type = response.headers.get("Content-Type") ?? "";
    const json = type.includes("json") ? await response.json() : null;
    return { status: response.status, type, json, headers: response.headers };
  };

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    global.__database = handle;
    const db = handle.db;
    await migrateToLatest(db);
    await seedDatabase(db, "db/seed");
    await insertTestUser(db, admin.id, admin.email);
    await insertTestUser(db, ann.id, ann.email);
    await grantAdministrator(admin.email, actor, db);
    await importGuide("step-test", await readGuideFolder("bench/fixtures/step-guide"), db);
    await db
      .insertInto("issues")
      .values({ id: 901, category_id: 1, name: "Wages", content: "# Wages", guide_id: "step-test", guide_path: "step-test/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" })
      .execute();
    for (const scope of SCOPES) tokens[scope] = (await createToken(admin, { name: `Only ${scope}`, scopes: [scope], days: 30 }, actor, db)).token;
    tokens.all = (await createToken(admin, { name: "Case system", scopes: [...SCOPES], days: 30 }, actor, db)).token;
  });
  afterAll(async () => {
    global.__database = undefined;
    await handle?.drop();
  });

  it("keeps only a token's SHA-256, shows its start, counts each use, and audits every change", async () => {
    const db = handle.db;
    const { id, token } = await createToken(admin, { name: "Counted", scopes: ["issues:read"], days: 7 }, actor, db);
    expect(token).toMatch(/^lsh_[A-Za-z0-9_-]{43}$/);
    const row = await db.selectFrom("api_tokens").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(createHash("sha256").update(token).digest("base64url"));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.prefix).toBe(token.slice(0, 8));

    const first = await authenticate(`Bearer ${token}`, db);
    expect(first).toMatchObject({ ok: true, holder: { name: "Counted", scopes: ["issues:read"], administrator: { id: admin.id } } });
    await authenticate(`Bearer ${token}`, db);
    const counted = await db.selectFrom("api_tokens").select(["use_count", "last_used_at"]).where("id", "=", id).executeTakeFirstOrThrow();
    expect(Number(counted.use_count)).toBe(2);
    expect(counted.last_used_at).not.toBeNull();

    expect(await authenticate(`Bearer ${token}`, db, new Date(Date.now() + 8 * DAY))).toEqual({ ok: false, reason: "expired" });
    expect(await authenticate(null, db)).toEqual({ ok: false, reason: "missing" });
    expect(await authenticate("Bearer lsh_nothing", db)).toEqual({ ok: false, reason: "unknown" });
    expect(await revokeToken(id, actor, db)).toBe(true);
    expect(await revokeToken(id, actor, db)).toBe(false);
    expect(await authenticate(`Bearer ${token}`, db)).toEqual({ ok: false, reason: "revoked" });
    const listed = (await listTokens(db)).find((t) => t.id === id);
    expect(listed).toMatchObject({ status: "revoked", useCount: 2, prefix: token.slice(0, 8), createdByEmail: admin.email });

    const audit = await db.selectFrom("audit_events").select(["action", "subject", "details"]).where("subject", "=", "Counted").orderBy("seq").execute();
    expect(audit.map((event) => event.action)).toEqual(["api-token.created", "api-token.revoked"]);
    expect(audit.map((event) => event.details).join()).not.toContain(token);
  });

  it("refuses a token whose administrator is no longer one", async () => {
    const db = handle.db;
    const other = { id: randomUUID(), email: "former@example.org" };
    await insertTestUser(db, other.id, other.email);
    await grantAdministrator(other.email, actor, db);
    const { token } = await createToken(other, { name: "Former", scopes: ["issues:read"], days: 30 }, actor, db);
    expect((await authenticate(`Bearer ${token}`, db)).ok).toBe(true);
    await revokeAdministrator(other.email, actor, db);
    expect(await authenticate(`Bearer ${token}`, db)).toEqual({ ok: false, reason: "revoked" });
  });

  it("answers 401, 403, 404, 405 and bad input as problem details, never 500", async () => {
    const none = await call("GET", "/issues", null);
    expect(none).toMatchObject({ status: 401, type: "application/problem+json", json: { title: "Unauthorized", status: 401 } });
    expect(none.headers.get("WWW-Authenticate")).toBe(`Bearer realm="api"`);
    expect((await call("GET", "/issues", "lsh_unknown")).status).toBe(401);
    const wrong = await call("GET", "/issues", tokens["shared:read"]!);
    expect(wrong).toMatchObject({ status: 403, json: { detail: "This token does not have the scope issues:read." } });
    expect(wrong.headers.get("WWW-Authenticate")).toContain(`error="insufficient_scope"`);
    expect((await call("GET", "/nothing", tokens.all!)).status).toBe(404);
    expect((await call("GET", "/issues/abc", tokens.all!)).status).toBe(404);
    expect((await call("GET", "/issues/99999", tokens.all!)).status).toBe(404);
    const method = await call("POST", "/issues", tokens.all!, {});
    expect(method.status).toBe(405);
    expect(method.headers.get("Allow")).toBe("GET, HEAD");
    expect(await call("GET", "/issues?limit=0", tokens.all!)).toMatchObject({ status: 400, json: { errors: [{ parameter: "limit" }] } });
    expect(await call("GET", "/issues?cursor=nonsense", tokens.all!)).toMatchObject({ status: 400, json: { errors: [{ parameter: "cursor" }] } });
    expect((await call("POST", "/prepared-interviews", tokens.all!, "{not json")).status).toBe(400);
    expect((await call("POST", "/prepared-interviews", tokens.all!, undefined, { "Content-Type": "text/plain" })).status).toBe(415);
    const invalid = await call("POST", "/prepared-interviews", tokens.all!, { issueId: "x", person: { firstName: "", lastName: "Lee", email: "nope" }, extra: 1 });
    expect(invalid.status).toBe(422);
    expect(invalid.json.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual(["/", "/issueId", "/person/email", "/person/firstName"]);
    for (const garbage of ["[]", "null", "1", `{"issueId":1e400}`, `{"person":[]}`]) {
      expect((await call("POST", "/prepared-interviews", tokens.all!, garbage)).status, garbage).toBeLessThan(500);
    }
    expect((await call("GET", "/shared-interviews/%E0%A4%A", tokens.all!)).status).toBe(404);
    // The document needs no token, and is not sent again to a client that has it.
    const description = await call("GET", "/openapi.json", null);
    expect(description.status).toBe(200);
    expect((await call("GET", "/openapi.json", null, undefined, { "If-None-Match": description.headers.get("ETag")! })).status).toBe(304);
  });

  it("lists issues and guides a page at a time with cursors, and reads one with its guide's variables", async () => {
    const first = await call("GET", "/issues?limit=1", tokens["issues:read"]!);
    expect(first.status).toBe(200);
    expect(first.json.items).toHaveLength(1);
    expect(first.json.nextCursor).toEqual(expect.any(String));
    const seen = [first.json.items[0].id];
    let cursor: string | null = first.json.nextCursor;
    while (cursor) {
      const next = await call("GET", `/issues?limit=2&cursor=${cursor}`, tokens["issues:read"]!);
      seen.push(...next.json.items.map((item: { id: number }) => item.id));
      cursor = next.json.nextCursor;
    }
    const all = await handle.db.selectFrom("issues").select("id").orderBy("id").execute();
    expect(seen).toEqual(all.map((row) => row.id));
    expect((await call("GET", "/issues/901", tokens["issues:read"]!)).json).toMatchObject({ id: 901, name: "Wages", guideId: "step-test", content: "# Wages" });
    const guide = await call("GET", "/guides/step-test", tokens["issues:read"]!);
    expect(guide.json).toMatchObject({ id: "step-test", issueIds: [901] });
    expect(guide.json.variables).toContainEqual({ name: "Name TE", type: "Text", repeating: false, comment: "" });
    expect((await call("GET", "/guides", tokens["issues:read"]!)).json.items.map((g: { id: string }) => g.id)).toContain("step-test");
  });

  it("prepares an interview with answers filled in and emails the invitation; refuses answers that do not fit", async () => {
    const db = handle.db;
    const bad = await call("POST", "/prepared-interviews", tokens["prepared:write"]!, {
      issueId: 901,
      person: { firstName: "Cal", lastName: "Lee", email: "cal@example.org" },
      answers: { "Name TE": "Cal", "Amount NU": "lots", "No such": "x" },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.errors).toEqual(
      expect.arrayContaining([expect.objectContaining({ pointer: "/answers/Amount NU" }), expect.objectContaining({ pointer: "/answers/No such" })]),
    );
    expect((await call("POST", "/prepared-interviews", tokens["prepared:write"]!, { issueId: 99999, person: { firstName: "Cal", lastName: "Lee", email: "cal@example.org" } })).json).toMatchObject({
      status: 422,
      errors: [{ pointer: "/issueId" }],
    });

    const made = await call("POST", "/prepared-interviews", tokens["prepared:write"]!, {
      issueId: 901,
      person: { firstName: "Cal", lastName: "Lee", email: "cal@example.org" },
      answers: { "Name TE": "Cal Lee", "Amount NU": 12 },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ issueId: 901, state: "sent", person: { email: "cal@example.org" } });
    expect(made.headers.get("Location")).toBe(made.json.links.self);
    const interview = await loadInterview(admin.id, made.json.interviewId, db);
    expect(interview?.state.answers["name te"]?.values).toEqual([null, "Cal Lee"]);
    expect(interview?.state.answers["amount nu"]?.values).toEqual([null, 12]);
    const prepared = await db.selectFrom("prepared_interviews").selectAll().where("interview_id", "=", made.json.interviewId).executeTakeFirstOrThrow();
    expect(prepared.helper_name).toBe("Only prepared:write");
    const mail = await db.selectFrom("outbox_messages").select(["subject", "text"]).where("to_address", "=", "cal@example.org").execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.text).toContain("/invitation?code=");
    expect((await call("GET", `/prepared-interviews/${made.json.interviewId}`, tokens["prepared:write"]!)).json).toMatchObject({ state: "sent" });
    const audit = await db.selectFrom("audit_events").select(["action", "actor_email"]).where("action", "in", ["help.prepared", "help.invited"]).execute();
    expect(audit.map((event) => event.actor_email)).toEqual([`${admin.email} (API token "Only prepared:write")`, `${admin.email} (API token "Only prepared:write")`]);
  });

  it("reads a shared interview, its answers as JSON and ANX, and replies, only while it is shared", async () => {
    const db = handle.db;
    const guide = (await getGuide("step-test", db))!;
    const started = startInterview(guide, 20000);
    if (!started.ok) throw new Error("the guide does not start");
    const answers = { ...started.state.answers, "name te": { name: "Name TE", type: "Text" as const, repeating: false, values: [null, "Ann Example"] } };
    const interviewId = await saveInterview({ id: null, userId: ann.id, issueId: 901, status: "Draft", state: { ...started.state, answers }, guide: { guideId: "step-test", version: 1 } }, db);
    const share = (await shareInterview(ann.id, interviewId, { answers: true, documents: true, files: false, message: "Please help" }, db))!;
    const token = tokens["shared:read"]!;

    const list = await call("GET", "/shared-interviews", token);
    expect(list.json.items.map((item: { id: string }) => item.id)).toContain(share.id);
    const read = await call("GET", `/shared-interviews/${share.id}`, token);
    expect(read.json).toMatchObject({ id: share.id, interviewId, status: "new", interviewStatus: "Draft", issue: { id: 901, name: "Wages" }, shared: { answers: true } });
    expect(read.json.message).toBeUndefined();
    expect((await call("GET", `/help-requests/${share.id}`, token)).json).toMatchObject({ id: share.id, message: "Please help" });
    expect((await call("GET", "/help-requests?status=new", token)).json.items.map((item: { id: string }) => item.id)).toContain(share.id);
    const json = await call("GET", `/shared-interviews/${share.id}/answers`, token);
    expect(json.json.answers["name te"].values).toEqual([null, "Ann Example"]);
    const anx = await answerApi(new Request(`http://localhost/api/v1/shared-interviews/${share.id}/answers/anx`, { headers: { Authorization: `Bearer ${token}` } }), "x");
    expect(anx.headers.get("Content-Type")).toContain("application/xml");
    expect(await anx.text()).toContain("Ann Example");
    // A Draft's share cannot hold the document (the person shares it once finished): not there.
    expect(read.json.shared.documents).toBe(false);
    expect((await call("GET", `/shared-interviews/${share.id}/files`, token)).status, "files not shared").toBe(404);
    expect((await call("GET", `/shared-interviews/${share.id}/document`, token)).status).toBe(404);
    const views = await db.selectFrom("share_views").select(["helper_name", "what"]).where("share_id", "=", share.id).execute();
    expect(views).toEqual(expect.arrayContaining([{ helper_name: "Only shared:read", what: "answers" }]));

    expect((await call("POST", `/help-requests/${share.id}/replies`, token, { body: "Hello" })).status).toBe(403);
    expect((await call("POST", `/help-requests/${share.id}/replies`, tokens["replies:write"]!, { body: "Hello", aboutPage: "nope" })).status).toBe(422);
    const replied = await call("POST", `/help-requests/${share.id}/replies`, tokens["replies:write"]!, { body: "We can help." });
    expect(replied.status).toBe(201);
    expect(replied.json.items[0]).toMatchObject({ from: "Only replies:write", body: "We can help.", readByPerson: false });
    expect((await call("GET", `/help-requests/${share.id}/replies`, token)).json.items).toHaveLength(1);

    await stopSharing(ann.id, interviewId, db);
    for (const p of ["/shared-interviews/{id}", "/shared-interviews/{id}/answers", "/shared-interviews/{id}/answers/anx", "/shared-interviews/{id}/document", "/help-requests/{id}", "/help-requests/{id}/replies"]) {
      expect((await call("GET", p.replace("{id}", share.id), token)).status, p).toBe(404);
    }
    expect((await call("GET", "/shared-interviews", token)).json.items.map((item: { id: string }) => item.id)).not.toContain(share.id);
  });

  it("manages webhook endpoints: register (the secret once), read, change, list deliveries, remove", async () => {
    const token = tokens["webhooks:manage"]!;
    expect((await call("GET", "/webhooks", tokens["shared:read"]!)).status).toBe(403);
    const refused = await call("POST", "/webhooks", token, { url: "http://127.0.0.1/hook", events: ["interview.shared"] });
    expect(refused).toMatchObject({ status: 422, json: { errors: [{ pointer: "/url" }] } });
    expect((await call("POST", "/webhooks", token, { url: "https://93.184.216.34/hook", events: ["nothing"] })).status).toBe(422);
    const made = await call("POST", "/webhooks", token, { url: "https://93.184.216.34/hook", description: "Case system", events: ["interview.shared", "share.ended"] });
    expect(made.status).toBe(201);
    expect(made.json.secret).toMatch(/^whsec_/);
    const id = made.json.id as string;
    expect((await call("GET", `/webhooks/${id}`, token)).json).toMatchObject({ id, enabled: true, events: ["interview.shared", "share.ended"] });
    expect((await call("GET", `/webhooks/${id}`, token)).json.secret).toBeUndefined();
    const changed = await call("POST", `/webhooks/${id}`, token, { url: "https://93.184.216.34/other", events: ["share.ended"], enabled: false });
    expect(changed.json).toMatchObject({ url: "https://93.184.216.34/other", events: ["share.ended"], enabled: false });
    expect((await call("GET", "/webhooks", token)).json.items.map((item: { id: string }) => item.id)).toContain(id);
    expect((await call("POST", `/webhooks/${id}/rotate-secret`, token)).json.secret).toMatch(/^whsec_/);
    expect((await call("GET", `/webhooks/${id}/deliveries`, token)).json).toEqual({ items: [], nextCursor: null });
    expect((await call("POST", `/webhooks/${id}/deliveries/msg_${"0".repeat(32)}/send-again`, token)).status).toBe(404);
    expect((await call("DELETE", `/webhooks/${id}`, token)).status).toBe(204);
    expect((await call("GET", `/webhooks/${id}`, token)).status).toBe(404);
    const audit = await handle.db.selectFrom("audit_events").select("action").where("subject", "=", `webhook ${id}`).orderBy("seq").execute();
    expect(audit.map((event) => event.action)).toEqual(expect.arrayContaining(["webhook.registered", "webhook.changed", "webhook.disabled", "webhook.deleted"]));
  });

  it("refuses a token over its rate limit with 429 and Retry-After, counted in the database", async () => {
    const db = handle.db;
    const { id, token } = await createToken(admin, { name: "Busy", scopes: ["issues:read"], days: 7 }, actor, db);
    await db.insertInto("rate_limits").values({ bucket: `api:token:${id}`, window_started_at: new Date().toISOString(), hits: limits.apiPerToken.max }).execute();
    const refused = await call("GET", "/issues", token);
    expect(refused).toMatchObject({ status: 429, type: "application/problem+json", json: { title: "Too Many Requests" } });
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect((await call("GET", "/issues", tokens["issues:read"]!)).status, "another token is not held back").toBe(200);
  });

  it("never answers 5xx to random paths, queries and bodies, whatever the token may do", async () => {
    const ids = ["901", "step-test", randomUUID(), "x", "%", "..%2f", "0", "-1", "99999999999", `msg_${"0".repeat(32)}`];
    const routes = endpoints.map((endpoint) => endpoint);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...routes),
        fc.array(fc.constantFrom(...ids), { minLength: 2, maxLength: 2 }),
        fc.dictionary(fc.constantFrom("limit", "cursor", "status", "x"), fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom("0", "101", "new", "e30", "eyJpZCI6MX0"))),
        fc.oneof(fc.json({ maxDepth: 3 }), fc.string({ maxLength: 50 }), fc.constant(JSON.stringify({ issueId: 901, person: { firstName: "A", lastName: "B", email: "a@example.org" }, answers: { "Amount NU": [1, "x", null] } }))),
        async (endpoint, [first, second], query, body) => {
          let index = 0;
          const path = endpoint.path.replace(/\{\w+\}/g, () => encodeURIComponent([first, second][index++] ?? "x"));
          const search = new URLSearchParams(query).toString();
          const answer = await call(endpoint.method, `${path}${search ? `?${search}` : ""}`, tokens.all!, endpoint.method === "POST" ? body : undefined);
          expect(answer.status, `${endpoint.method} ${path}?${search} ${endpoint.method === "POST" ? body : ""}`).toBeLessThan(500);
        },
      ),
      { numRuns: 150, seed: 31 },
    );
  });
});
