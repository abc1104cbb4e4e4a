import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { type OpenApi, operations, plantAdministrator, plantToken } from "./api-support";
import { plantAtFinish, plantAttachment, withE2eDatabase } from "./support";
import { uniqueEmail } from "./accounts";

// The API's authorisation matrix (issue 31): every operation of the OpenAPI document (made from the endpoint table,
// so a new endpoint cannot be left out) × no token, an expired one, a revoked one, one without the scope, one
// with it. Refusals are 401 or 403 problem details, and change nothing; the right scope reaches the endpoint.
// Raw HTTP: js project only.

test("every endpoint × no token, expired, revoked, wrong scope, right scope", async ({ baseURL }) => {
  test.setTimeout(120_000);
  const admin = plantAdministrator("api-matrix-admin");
  const document = (await (await fetch(`${baseURL}/api/v1/openapi.json`)).json()) as OpenApi;
  const all = operations(document);
  const scopes = [...new Set(all.map((operation) => operation.scope))];
  expect(scopes.sort()).toEqual(["issues:read", "prepared:write", "replies:write", "shared:read", "webhooks:manage"]);

  // Something real behind every path: a live share (answers, the document and a file) of a finished interview, an interview
  // prepared by this administrator, a webhook endpoint and one of its deliveries.
  const ownerEmail = uniqueEmail("api-matrix-owner");
  const ownerId = randomUUID();
  const now = new Date().toISOString();
  withE2eDatabase((db) =>
    db
      .prepare(
        "insert into users (id, first_name, last_name, email, email_key, phone_country, phone_code, phone_number, password_hash, email_verified_at, totp_secret, two_factor_enabled, totp_last_step, role, created_at, updated_at) values (?, 'Ona', 'Owner', ?, ?, 'SG', '+65', '91234567', null, ?, null, 1, null, 'person', ?, ?)",
      )
      .run(ownerId, ownerEmail, ownerEmail.toLowerCase(), now, now, now),
  );
  const interviewId = plantAtFinish(ownerEmail);
  const fileId = plantAttachment(ownerEmail, interviewId, "matrix-file");
  const shareId = randomUUID();
  withE2eDatabase((db) => {
    db.prepare("update interviews set status = 'Completed' where id = ?").run(interviewId);
    db.prepare(
      "insert into interview_shares (id, interview_id, owner_id, answers, documents, files, message, language, status, created_at, expires_at) values (?, ?, ?, 1, 1, 1, null, 'en', 'new', ?, ?)",
    ).run(shareId, interviewId, ownerId, now, new Date(Date.now() + 86_400_000).toISOString());
  });
  const setUp = plantToken(admin.id, "Matrix set-up", scopes);
  const json = { Authorization: `Bearer ${setUp}`, "Content-Type": "application/json" };
  const base = document.servers[0]!.url;
  const prepared = await (
    await fetch(`${base}/prepared-interviews`, { method: "POST", headers: json, body: JSON.stringify({ issueId: 2, person: { firstName: "Mo", lastName: "Tan", email: uniqueEmail("api-matrix-invited") } }) })
  ).json();
  const webhook = await (await fetch(`${base}/webhooks`, { method: "POST", headers: json, body: JSON.stringify({ url: "http://127.0.0.1:9/none", events: ["share.ended"] }) })).json();
  const deliveryId = `msg_${randomUUID().replaceAll("-", "")}`;
  withE2eDatabase((db) =>
    db
      .prepare("insert into webhook_deliveries (id, endpoint_id, event_type, payload, status, tries, attempts, next_attempt_at, give_up_at, created_at) values (?, ?, 'share.ended', '{}', 'failed', 8, 8, ?, ?, ?)")
      .run(deliveryId, webhook.id, now, now, now),
  );
  const params: Record<string, string> = { issueId: "2", guideId: "re-entry-navigator", interviewId: prepared.interviewId, shareId, fileId, webhookId: webhook.id, deliveryId };
  // Bodies the right scope may send: a valid reply and webhook change; an empty preparation (422: it reached the endpoint, and no email is sent).
  const bodies: Record<string, unknown> = {
    prepareInterview: {},
    reply: { body: "From the matrix." },
    registerWebhook: { url: "http://127.0.0.1:9/other", events: ["share.ended"] },
    changeWebhook: { url: "http://127.0.0.1:9/none", events: ["share.ended"] },
  };

  const tokens = {
    none: null,
    expired: plantToken(admin.id, "Matrix expired", scopes, "expired"),
    revoked: plantToken(admin.id, "Matrix revoked", scopes, "revoked"),
  };
  // What this test's requests could change (other specs run beside it): its share's replies, its webhooks, its preparations.
  const counts = () =>
    withE2eDatabase((db) =>
      db
        .prepare(
          "select (select count(*) from share_replies where share_id = ?) as replies, (select count(*) from webhook_endpoints where url like 'http://127.0.0.1:9/%') as webhooks, (select count(*) from prepared_interviews where helper_id = ?) as prepared, (select count(*) from audit_events where actor_id = ?) as audited",
        )
        .get(shareId, admin.id, admin.id),
    );
  const table: string[] = [];
  // DELETE last: it removes the endpoint the others are about.
  const ordered = [...all.filter((operation) => operation.method !== "DELETE"), ...all.filter((operation) => operation.method === "DELETE")];
  for (const operation of ordered) {
    const url = `${base}${operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(params[name]!))}`;
    const ask = (token: string | null) =>
      fetch(url, {
        method: operation.method,
        headers: { ...(token ? { Authorization: `Bearer ${token}` } : {}), ...(operation.hasBody ? { "Content-Type": "application/json" } : {}) },
        ...(operation.hasBody ? { body: JSON.stringify(bodies[operation.operationId] ?? {}) } : {}),
      });
    const before = counts();
    const wrongScope = plantToken(admin.id, `Matrix without ${operation.scope}`, scopes.filter((scope) => scope !== operation.scope));
    for (const [kind, token, status] of [
      ["none", tokens.none, 401],
      ["expired", tokens.expired, 401],
      ["revoked", tokens.revoked, 401],
      ["wrong scope", wrongScope, 403],
    ] as const) {
      const response = await ask(token);
      table.push(`${operation.method} ${operation.path}\t${kind}\t${response.status}`);
      expect(response.status, `${operation.operationId} with ${kind}`).toBe(status);
      expect(response.headers.get("content-type"), `${operation.operationId} with ${kind}`).toBe("application/problem+json");
      expect(response.headers.get("www-authenticate"), `${operation.operationId} with ${kind}`).toMatch(/^Bearer realm="api"/);
      expect(response.headers.get("set-cookie")).toBeNull();
    }
    expect(counts(), `a refused ${operation.operationId} changed something`).toEqual(before);
    const right = await ask(plantToken(admin.id, `Matrix with ${operation.scope}`, [operation.scope]));
    table.push(`${operation.method} ${operation.path}\tright scope\t${right.status}`);
    if (operation.operationId === "prepareInterview") expect(right.status).toBe(422);
    else expect(right.status, `${operation.operationId} with the right scope: ${await right.clone().text()}`).toBeLessThan(300);
  }
  test.info().annotations.push({ type: "matrix", description: `${table.length} requests over ${all.length} operations\n${table.join("\n")}` });
  expect(table.length).toBe(all.length * 5);
});
