import { randomUUID } from "node:crypto";
import type { APIRequestContext, Browser, BrowserContext } from "@playwright/test";
import { unzipSync } from "fflate";
import { createAccount, signInWithPassword, signOut, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { signedInPerson } from "./people";
import { moveInterviewTo, plantAttachment, plantInterviews, sealedColumn, withE2eDatabase } from "./support";

/** A redirect's address without the return address sign-in carries (the page asked for, shown only after signing in). */
function withoutReturn(location: string): string {
  return location.replace(/[?&]returnTo=[^&#]*/, "");
}

// Every route that touches an interview, its answers, attachments, documents or AI screen, asked by the owner
// and by three people who must learn and change nothing: another signed-in person, a visitor, and someone
// half signed in (password right, two-factor code not given). A secret planted in the interview's answers
// and attachment must reach the owner only, and no request of the others may change the interview.
type Role = "owner" | "other" | "visitor" | "half";

interface Probe {
  name: string;
  method: "GET" | "POST";
  path: string;
  form?: Record<string, string>;
  /** What the owner gets: the status, and whether the secret is in the body. */
  owner: { status: number; secret?: boolean };
}

async function contextFor(browser: Browser, role: Role, javaScriptEnabled: boolean): Promise<{ context: BrowserContext; email: string }> {
  const context = await browser.newContext({ javaScriptEnabled });
  const email = uniqueEmail(`matrix-${role}`);
  if (role === "visitor") return { context, email };
  const page = await context.newPage();
  await createAccount(page, email);
  if (role === "half") {
    await signOut(page);
    await signInWithPassword(page, email);
    await expect(page).toHaveURL(/\/auth\/sign-in\/verify-2fa$/);
  }
  await page.close();
  return { context, email };
}

async function ask(request: APIRequestContext, probe: Probe) {
  const response = await request.fetch(probe.path, { method: probe.method, form: probe.form, maxRedirects: 0, failOnStatusCode: false });
  return { status: response.status(), location: response.headers()["location"] ?? "", body: (await response.body()).toString("latin1") };
}

test("the authorisation matrix: only the owner reaches an interview, its answers, files, documents and AI screen", async ({ browser, javaScriptEnabled }) => {
  test.setTimeout(180_000);
  const roles = Object.fromEntries(
    await Promise.all((["owner", "other", "visitor", "half"] as Role[]).map(async (role) => [role, await contextFor(browser, role, javaScriptEnabled)] as const)),
  ) as Record<Role, { context: BrowserContext; email: string }>;

  const secret = `secret-${randomUUID()}`;
  // A Draft (what the viewer and the AI screen work on) and a Completed one (what has a document).
  const [interviewId, completedId] = plantInterviews(roles.owner.email, [
    { issueId: 3, status: "Draft", daysAgo: 0 },
    { issueId: 3, status: "Completed", daysAgo: 1 },
  ]);
  const vars = { "outcome wanted te": { name: "Outcome wanted TE", type: "Text", repeating: false, values: [null, secret] } };
  withE2eDatabase((db) => {
    for (const id of [interviewId!, completedId!]) {
      db.prepare("update interviews set vars = ? where id = ?").run(sealedColumn("vars", id, JSON.stringify(vars)), id);
    }
  });
  moveInterviewTo(interviewId!, "09-Outcome");
  // A Completed one whose document needs a signature (issue 9's letter of demand has a "User signature" place).
  const [signId] = plantInterviews(roles.owner.email, [{ issueId: 9, status: "Completed", daysAgo: 1 }]);
  const signingRows = () => withE2eDatabase((db) => db.prepare("select count(*) as n from signing_requests where interview_id = ?").get(signId));
  const attachmentId = plantAttachment(roles.owner.email, interviewId!, secret);
  const stored = () =>
    withE2eDatabase((db) => db.prepare("select id, status, vars, engine_state, updated_at from interviews where id in (?, ?) order by id").all(interviewId, completedId));
  const before = stored();

  const viewer = `/viewer?issueId=3&interviewId=${interviewId}`;
  const probes: Probe[] = [
    { name: "interview page", method: "GET", path: `/issues/3/interviews/${interviewId}`, owner: { status: 200 } },
    { name: "viewer", method: "GET", path: viewer, owner: { status: 200 } },
    { name: "viewer, Continue pressed", method: "POST", path: viewer, form: { _page: "09-Outcome", _button: "0", "outcome wanted te": secret }, owner: { status: 302 } },
    { name: "answers (ANX)", method: "GET", path: `/interviews/${interviewId}/answers`, owner: { status: 200, secret: true } },
    { name: "document download", method: "GET", path: `/account/interview/${completedId}/download`, owner: { status: 200 } },
    { name: "completed answers summary", method: "GET", path: `/account/interview/${completedId}/answers`, owner: { status: 200 } },
    { name: "delete confirmation", method: "GET", path: `/account/interview/${interviewId}/delete`, owner: { status: 200 } },
    { name: "signing page", method: "GET", path: `/account/interview/${signId}/sign`, owner: { status: 200 } },
    { name: "signing, signed", method: "POST", path: `/account/interview/${signId}/sign`, form: { fullName: secret, confirm: "on" }, owner: { status: 0 } },
    // Not signed yet: nobody has a signed document (the owner's comes once everyone signed: tests/e2e/signing.spec.ts).
    { name: "signed document", method: "GET", path: `/account/interview/${signId}/signed`, owner: { status: 404 } },
    { name: "emailed link to sign, made up", method: "GET", path: `/sign?code=${signId}`, owner: { status: 404 } },
    { name: "document for a signer, made up", method: "GET", path: `/sign/document?code=${signId}`, owner: { status: 404 } },
    { name: "AI rephrase screen", method: "GET", path: `/ai/rephrase/${interviewId}?variable=outcome+wanted+te&index=1`, owner: { status: 200, secret: true } },
    { name: "AI rephrase, asked", method: "POST", path: `/ai/rephrase/${interviewId}?variable=outcome+wanted+te&index=1`, form: { intent: "save", choice: "own", text: "changed" }, owner: { status: 0 } },
    { name: "attachment", method: "GET", path: `/attachments/${attachmentId}`, owner: { status: 200, secret: true } },
    { name: "attachment info", method: "GET", path: `/attachments/${attachmentId}/info`, owner: { status: 200 } },
    { name: "delete", method: "POST", path: `/account/interview/${interviewId}/delete`, form: { back: "/account/interview" }, owner: { status: 0 } },
  ];

  const table: string[] = [];
  for (const role of ["other", "visitor", "half"] as const) {
    for (const probe of probes) {
      const answer = await ask(roles[role].context.request, probe);
      table.push(`${role}\t${probe.method} ${probe.name}\t${answer.status}${answer.location ? ` → ${answer.location}` : ""}`);
      expect(answer.body, `${role}: ${probe.name} leaks the secret`).not.toContain(secret);
      expect([302, 303, 401, 403, 404], `${role}: ${probe.name} answered ${answer.status}`).toContain(answer.status);
      // A redirect never leads to the thing asked for (sign-in may name it as where to come back to).
      expect([interviewId!, completedId!, attachmentId, signId!].some((id) => withoutReturn(answer.location).includes(id)), `${role}: ${probe.name} redirects to ${answer.location}`).toBe(false);
      if (role === "other") expect(answer.status, `another person: ${probe.name}`).toBe(404);
    }
  }
  expect(stored(), "the interview changed").toEqual(before);
  expect(signingRows(), "someone signed the owner's document").toEqual({ n: 0 });

  // The account-wide routes act on whoever asks: a visitor or someone half signed in is sent away, another
  // person gets their own data (never the owner's) and cannot delete the owner's account.
  const users = () => withE2eDatabase((db) => db.prepare("select id, email, password_hash, totp_secret from users where email in (?, ?) order by email").all(roles.owner.email, roles.other.email));
  const usersBefore = users();
  const wholeZip = async (request: APIRequestContext) => {
    const response = await request.post("/account/my-data/download", { form: {}, maxRedirects: 0, failOnStatusCode: false });
    expect(response.headers()["content-type"]).toBe("application/zip");
    return Object.values(unzipSync(new Uint8Array(await response.body()))).map((bytes) => Buffer.from(bytes).toString("latin1")).join("\n");
  };
  for (const role of ["visitor", "half"] as const) {
    const accountProbes: { method: "GET" | "POST"; path: string; form?: Record<string, string> }[] = [
      { method: "GET", path: "/account/my-data" },
      { method: "POST", path: "/account/my-data/download", form: {} },
      { method: "GET", path: "/account/delete-account" },
      { method: "POST", path: "/account/delete-account", form: { password: "correct horse 42", code: "000000" } },
    ];
    for (const probe of accountProbes) {
      const answer = await ask(roles[role].context.request, { name: probe.path, owner: { status: 0 }, ...probe });
      table.push(`${role}\t${probe.method} ${probe.path}\t${answer.status}${answer.location ? ` → ${answer.location}` : ""}`);
      expect(answer.status, `${role}: ${probe.method} ${probe.path}`).toBe(302);
      expect(answer.body).not.toContain(secret);
    }
  }
  const theirs = await wholeZip(roles.other.context.request);
  expect(theirs).toContain(roles.other.email);
  expect(theirs, "another person's export holds the owner's data").not.toContain(secret);
  expect(theirs).not.toContain(roles.owner.email);
  const refusedDelete = await ask(roles.other.context.request, { name: "delete account", method: "POST", path: "/account/delete-account", form: { password: "correct horse 42", code: "000000" }, owner: { status: 0 } });
  expect(refusedDelete.status).toBe(400);
  expect(users(), "an account changed").toEqual(usersBefore);
  const owners = await wholeZip(roles.owner.context.request);
  expect(owners).toContain(secret);
  expect(owners).toContain(roles.owner.email);

  // The same requests reach the owner (the writes last: they change or delete the interview).
  for (const probe of probes) {
    if (probe.owner.status === 0) continue;
    const answer = await ask(roles.owner.context.request, probe);
    expect(answer.status, `owner: ${probe.name}`).toBe(probe.owner.status);
    if (probe.owner.secret) expect(answer.body, `owner: ${probe.name}`).toContain(secret);
  }
  const deleted = await ask(roles.owner.context.request, probes.at(-1)!);
  expect(deleted.status).toBe(302);
  expect(withE2eDatabase((db) => db.prepare("select count(*) as n from interviews where id = ?").get(interviewId))).toEqual({ n: 0 });
  test.info().annotations.push({ type: "matrix", description: `${table.length} refused requests\n${table.join("\n")}` });

  await Promise.all(Object.values(roles).map(({ context }) => context.close()));
});

// The help desk's matrix (issue 28): every route of the help desk, the person's help page and the prepared
// interviews, asked by every role about a share that is live, one the person stopped, one past its days, and an
// interview never shared. Only the helper who took a live request reads what it shares (the answers and the file);
// helpers of the same country or issue see the request and its message; nobody else learns or changes anything.
type DeskRole = "taker" | "peer" | "otherCountry" | "otherIssue" | "owner" | "otherPerson" | "administrator" | "visitor";

test("the help desk's authorisation matrix: what a person shares reaches only the helpers it is shared with, while it is shared", async ({ browser, javaScriptEnabled }) => {
  test.setTimeout(180_000);
  const people = {
    taker: await signedInPerson(browser, javaScriptEnabled, "desk-taker", { role: "helper", helps: { countries: [2] } }),
    peer: await signedInPerson(browser, javaScriptEnabled, "desk-peer", { role: "helper", helps: { issues: [2] } }),
    otherCountry: await signedInPerson(browser, javaScriptEnabled, "desk-country", { role: "helper", helps: { countries: [3] } }),
    otherIssue: await signedInPerson(browser, javaScriptEnabled, "desk-issue", { role: "helper", helps: { issues: [3] } }),
    owner: await signedInPerson(browser, javaScriptEnabled, "desk-owner"),
    otherPerson: await signedInPerson(browser, javaScriptEnabled, "desk-other"),
    administrator: await signedInPerson(browser, javaScriptEnabled, "desk-admin", { role: "administrator" }),
  };
  const visitor = await browser.newContext({ javaScriptEnabled });
  const requestOf = (role: DeskRole) => (role === "visitor" ? visitor.request : people[role].context.request);
  const post = (role: DeskRole, path: string, form: Record<string, string | string[]>) => {
    const body = new URLSearchParams();
    for (const [key, value] of Object.entries(form)) for (const one of ([] as string[]).concat(value)) body.append(key, one);
    return requestOf(role).post(path, { data: body.toString(), headers: { "Content-Type": "application/x-www-form-urlencoded" }, maxRedirects: 0, failOnStatusCode: false });
  };

  const answersSecret = `answer-${randomUUID()}`;
  const fileSecret = `file-${randomUUID()}`;
  const messageMarker = `message-${randomUUID()}`;
  const [live, never, stopped, expired] = plantInterviews(people.owner.email, [0, 1, 2, 3].map((daysAgo) => ({ issueId: 2, status: "Completed" as const, daysAgo })));
  // Enough answers for the guide's document (as plantAtFinish gives), the first name being the secret.
  const vars = {
    "client first name te": { name: "Client first name TE", type: "Text", repeating: false, values: [null, answersSecret] },
    "client last name te": { name: "Client last name TE", type: "Text", repeating: false, values: [null, "Lee"] },
    "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] },
  };
  withE2eDatabase((db) => {
    for (const id of [live!, never!, stopped!, expired!]) db.prepare("update interviews set vars = ? where id = ?").run(sealedColumn("vars", id, JSON.stringify(vars)), id);
  });
  for (const id of [live!, never!, stopped!, expired!]) moveInterviewTo(id, "1-Name and gender");
  const files = Object.fromEntries([live!, never!, stopped!, expired!].map((id) => [id, plantAttachment(people.owner.email, id, fileSecret)]));

  // Shared by the person and taken by the helper, through the application's own forms.
  const shares: Record<string, string> = {};
  for (const id of [live!, stopped!, expired!]) {
    expect((await post("owner", `/account/interview/${id}/help`, { intent: "share", share: ["answers", "documents", "files"], message: messageMarker })).status()).toBe(302);
    shares[id] = withE2eDatabase((db) => (db.prepare("select id from interview_shares where interview_id = ?").get(id) as { id: string }).id);
    expect((await post("taker", `/help/requests/${shares[id]}`, { intent: "take" })).status()).toBe(302);
  }
  expect((await post("owner", `/account/interview/${stopped}/help`, { intent: "stop" })).status()).toBe(302);
  withE2eDatabase((db) => db.prepare("update interview_shares set expires_at = ? where id = ?").run(new Date(Date.now() - 1000).toISOString(), shares[expired!]));
  const prepared = await post("taker", "/help/prepared/new", { issueId: "2", firstName: "Pat", lastName: "Doe", email: uniqueEmail("desk-prepared") });
  expect(prepared.status()).toBe(302);
  const preparedId = prepared.headers()["location"]!.split("/").at(-1)!;

  const state = () =>
    withE2eDatabase((db) => ({
      shares: db.prepare("select id, status, taken_by, ended_at, expires_at, closed_at from interview_shares where owner_id = (select id from users where email = ?) order by id").all(people.owner.email),
      replies: db.prepare("select count(*) as n from share_replies").get(),
      prepared: db.prepare("select interview_id, invitation_hash, claimed_at from prepared_interviews where interview_id = ?").all(preparedId),
      interviews: db.prepare("select id, user_id, status, vars from interviews where id in (?, ?, ?, ?, ?) order by id").all(live, never, stopped, expired, preparedId),
    }));
  const before = state();

  type Probe = { name: string; method: "GET" | "POST"; path: string; form?: Record<string, string | string[]>; subject: string };
  const requestProbes = (label: string, id: string): Probe[] => {
    const share = shares[id]!;
    return [
      { name: `${label}: request`, method: "GET", path: `/help/requests/${share}`, subject: id },
      { name: `${label}: answers`, method: "GET", path: `/help/requests/${share}/answers`, subject: id },
      { name: `${label}: document`, method: "GET", path: `/help/requests/${share}/document`, subject: id },
      { name: `${label}: file`, method: "GET", path: `/help/requests/${share}/files/${files[id]}`, subject: id },
      { name: `${label}: reply`, method: "POST", path: `/help/requests/${share}`, form: { intent: "reply", body: "A reply" }, subject: id },
      { name: `${label}: take`, method: "POST", path: `/help/requests/${share}`, form: { intent: "take" }, subject: id },
      { name: `${label}: close`, method: "POST", path: `/help/requests/${share}`, form: { intent: "close" }, subject: id },
    ];
  };
  const personProbes = (label: string, id: string): Probe[] => [
    { name: `${label}: help page`, method: "GET", path: `/account/interview/${id}/help`, subject: id },
    { name: `${label}: stop sharing`, method: "POST", path: `/account/interview/${id}/help`, form: { intent: "stop" }, subject: id },
    { name: `${label}: share`, method: "POST", path: `/account/interview/${id}/help`, form: { intent: "share", share: "answers" }, subject: id },
    { name: `${label}: interview page`, method: "GET", path: `/issues/2/interviews/${id}`, subject: id },
  ];
  const probes: Probe[] = [
    ...requestProbes("live share", live!),
    ...requestProbes("stopped share", stopped!),
    ...requestProbes("expired share", expired!),
    ...personProbes("shared interview", live!),
    ...personProbes("never shared", never!),
    { name: "desk", method: "GET", path: "/help", subject: "" },
    { name: "desk, taken", method: "GET", path: "/help?status=taken", subject: "" },
    { name: "prepared list", method: "GET", path: "/help/prepared", subject: "" },
    { name: "prepare form", method: "GET", path: "/help/prepared/new", subject: "" },
    { name: "a prepared interview", method: "GET", path: `/help/prepared/${preparedId}`, subject: preparedId },
    { name: "invite", method: "POST", path: `/help/prepared/${preparedId}`, form: {}, subject: preparedId },
    { name: "cancel page", method: "GET", path: `/help/prepared/${preparedId}/cancel`, subject: preparedId },
    { name: "cancel", method: "POST", path: `/help/prepared/${preparedId}/cancel`, form: {}, subject: preparedId },
    { name: "prepared interview page", method: "GET", path: `/issues/2/interviews/${preparedId}`, subject: preparedId },
  ];

  /**
   * What a role may get: a status, and which secrets may (true) or must not (false) be in the body; `write`: a change
   * the role may make, which the matrix does not send. Null: a refusal, which must tell and change nothing.
   */
  const helpers: DeskRole[] = ["taker", "peer", "otherCountry", "otherIssue"];
  type Allowed = { status: number; write?: boolean; answers?: boolean; file?: boolean; message?: boolean };
  function allowed(role: DeskRole, probe: Probe): Allowed | null {
    const desk = probe.path === "/help" || probe.path.startsWith("/help?") || probe.path === "/help/prepared" || probe.path === "/help/prepared/new";
    if (desk) return helpers.includes(role) ? { status: 200, answers: false, file: false, message: false } : null;
    if (probe.path.startsWith(`/help/requests/${shares[live!]}`) && (role === "taker" || role === "peer")) {
      if (probe.name.endsWith(": request")) return { status: 200, message: true, answers: false, file: role === "taker" ? undefined : false };
      if (role === "peer") return probe.name.endsWith(": take") ? { status: 302, answers: false, file: false } : null; // "Another helper took this request first."
      if (probe.method === "POST") return { status: 302, write: true };
      if (probe.name.endsWith(": answers")) return { status: 200, answers: true, file: false };
      if (probe.name.endsWith(": file")) return { status: 200, file: true, answers: false };
      return { status: 200 };
    }
    if (probe.subject === preparedId && role === "taker") return probe.method === "POST" ? { status: 302, write: true } : { status: 200 };
    if (probe.path.startsWith("/account/") && role === "owner") return probe.method === "POST" ? { status: 302, write: true } : { status: 200, answers: false, message: probe.subject === live };
    if (probe.path.startsWith("/issues/") && role === "owner" && probe.subject !== preparedId) return { status: 200 };
    return null;
  }

  const table: string[] = [];
  let asked = 0;
  const roles: DeskRole[] = [...helpers, "owner", "otherPerson", "administrator", "visitor"];
  // Probe by probe, every role in turn: no role's connection sits idle long enough for the server to close it
  // under a request (its keep-alive is 5 s).
  for (const probe of probes) {
    for (const role of roles) {
      const expected = allowed(role, probe);
      // The writes a role is allowed are not sent: the matrix must leave everything as it was.
      if (expected?.write) continue;
      const response = probe.method === "GET" ? await requestOf(role).get(probe.path, { maxRedirects: 0, failOnStatusCode: false }) : await post(role, probe.path, probe.form ?? {});
      asked += 1;
      const body = (await response.body()).toString("latin1");
      const location = response.headers()["location"] ?? "";
      table.push(`${role}\t${probe.method} ${probe.name}\t${response.status()}${location ? ` → ${location}` : ""}`);
      const leaks = { answers: body.includes(answersSecret), file: body.includes(fileSecret), message: body.includes(messageMarker) };
      if (expected) {
        expect(response.status(), `${role}: ${probe.name}`).toBe(expected.status);
        for (const secret of ["answers", "file", "message"] as const) {
          if (expected[secret] !== undefined) expect(leaks[secret], `${role}: ${probe.name}, ${secret}`).toBe(expected[secret]);
        }
        continue;
      }
      expect(leaks, `${role}: ${probe.name} leaks`).toEqual({ answers: false, file: false, message: false });
      if (role === "visitor") expect([302, 404], `visitor: ${probe.name}`).toContain(response.status());
      else expect(response.status(), `${role}: ${probe.name}`).toBe(404);
      for (const id of [...Object.values(shares), ...Object.values(files), live!, never!, stopped!, expired!, preparedId]) {
        expect(withoutReturn(location).includes(id), `${role}: ${probe.name} redirects to ${location}`).toBe(false);
      }
    }
  }
  // The desk lists for each helper only what they may see.
  const deskOf = async (role: DeskRole, status: string) => (await (await requestOf(role).get(`/help?status=${status}`)).text()).includes(shares[live!]!);
  expect(await deskOf("taker", "taken")).toBe(true);
  expect(await deskOf("peer", "taken")).toBe(true);
  expect(await deskOf("otherCountry", "taken")).toBe(false);
  expect(await deskOf("otherIssue", "taken")).toBe(false);
  for (const id of [shares[stopped!]!, shares[expired!]!]) expect((await (await requestOf("taker").get("/help?status=taken")).text()).includes(id)).toBe(false);

  const after = state();
  expect(after, "a refused request changed something").toEqual(before);
  test.info().annotations.push({ type: "help desk matrix", description: `${asked} requests, ${table.length} rows\n${table.join("\n")}` });
  console.log(`help desk matrix: ${asked} requests by ${roles.length} roles over ${probes.length} probes`);
  await Promise.all([...Object.values(people).map(({ context }) => context.close()), visitor.close()]);
});

// The organisation's API (issue 31) takes bearer tokens only: an administrator's session cookie, sent by a browser
// to any of its operations (a page elsewhere could make it send one), is ignored, and the answer is 401 without a
// cookie of its own. /admin/api itself is in the administration's not-found matrix (tests/e2e/administration.spec.ts,
// through the fuzz targets).
test("the API never acts on a session cookie: every operation is 401 to a signed-in administrator's browser", async ({ browser, javaScriptEnabled }) => {
  const admin = await signedInPerson(browser, javaScriptEnabled, "api-cookie-admin", { role: "administrator" });
  try {
    const document = (await (await admin.context.request.get("/api/v1/openapi.json")).json()) as { paths: Record<string, Record<string, unknown>> };
    const id = randomUUID();
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const method of Object.keys(methods)) {
        const url = `/api/v1${path.replace(/\{deliveryId\}/, `msg_${"0".repeat(32)}`).replace(/\{issueId\}/, "2").replace(/\{(\w+)\}/g, id)}`;
        const response = await admin.context.request.fetch(url, { method: method.toUpperCase(), headers: { Cookie: admin.cookie, "Content-Type": "application/json" }, data: method === "post" ? {} : undefined, failOnStatusCode: false });
        expect(response.status(), `${method.toUpperCase()} ${path}`).toBe(401);
        expect(response.headers()["set-cookie"], `${method.toUpperCase()} ${path}`).toBeUndefined();
      }
    }
  } finally {
    await admin.context.close();
  }
});

// The webhook administration's matrix (issue 31): both pages and every form of an endpoint that exists, asked by a
// helper, a person, a visitor and an administrator. Only the administrator sees the endpoint (its address and its
// deliveries) or changes it; the others get the not-found page and change nothing, and no answer shows a secret.
test("the webhook administration's authorisation matrix: only administrators see or change an endpoint", async ({ browser, javaScriptEnabled }) => {
  test.setTimeout(120_000);
  const administrator = await signedInPerson(browser, javaScriptEnabled, "webhooks-admin", { role: "administrator" });
  const helper = await signedInPerson(browser, javaScriptEnabled, "webhooks-helper", { role: "helper" });
  const person = await signedInPerson(browser, javaScriptEnabled, "webhooks-person");
  const visitor = await browser.newContext({ javaScriptEnabled });
  const form = (data: Record<string, string>) => ({ form: data, maxRedirects: 0, failOnStatusCode: false });
  const marker = `https://hooks-${randomUUID()}.example.org/in`;
  const made = await administrator.context.request.post("/admin/webhooks", form({ url: "http://127.0.0.1:9/never", description: marker, events: "share.ended" }));
  expect(made.status()).toBe(200);
  const endpointId = /\/admin\/webhooks\/([0-9a-f-]{36})/.exec(await made.text())![1]!;
  const deliveryId = `msg_${"0".repeat(32)}`;
  const other = `http://127.0.0.1:9/${randomUUID()}`;
  const state = () =>
    withE2eDatabase((db) => ({
      endpoint: db.prepare("select url, description, events, secret, enabled from webhook_endpoints where id = ?").get(endpointId),
      refusedRegistrations: (db.prepare("select count(*) as n from webhook_endpoints where url = ?").get(other) as { n: number }).n,
    }));
  const before = state();
  const here = `/admin/webhooks/${endpointId}`;
  const probes: { method: "GET" | "POST"; path: string; form?: Record<string, string> }[] = [
    { method: "GET", path: "/admin/webhooks" },
    { method: "GET", path: "/admin/webhooks.data" },
    { method: "POST", path: "/admin/webhooks", form: { url: other, events: "share.ended" } },
    { method: "GET", path: here },
    { method: "GET", path: `${here}?confirm=delete` },
    { method: "GET", path: `${here}.data` },
    { method: "POST", path: here, form: { intent: "disable" } },
    { method: "POST", path: here, form: { intent: "rotate", confirmed: "yes" } },
    { method: "POST", path: here, form: { intent: "send-again", delivery: deliveryId } },
    { method: "POST", path: here, form: { intent: "delete", confirmed: "yes" } },
  ];
  let asked = 0;
  for (const [role, request] of [
    ["helper", helper.context.request],
    ["person", person.context.request],
    ["visitor", visitor.request],
  ] as const) {
    for (const probe of probes) {
      const response = await request.fetch(probe.path, { method: probe.method, ...(probe.form ? { form: probe.form } : {}), maxRedirects: 0, failOnStatusCode: false });
      asked += 1;
      const body = await response.text();
      expect(response.status(), `${role}: ${probe.method} ${probe.path}`).toBe(404);
      expect(body.includes(marker) || body.includes("whsec_"), `${role}: ${probe.method} ${probe.path} leaks`).toBe(false);
    }
  }
  expect(state(), "a refused request changed something").toEqual(before);
  // The administrator reaches each page; the secret is never shown again.
  for (const path of ["/admin/webhooks", here]) {
    const response = await administrator.context.request.get(path);
    expect(response.status()).toBe(200);
    const body = await response.text();
    expect(body).toContain(marker);
    expect(body).not.toContain("whsec_");
  }
  expect((await administrator.context.request.post(here, form({ intent: "delete", confirmed: "yes" }))).status()).toBe(302);
  console.log(`webhook administration matrix: ${asked} refused requests, 0 leaks`);
  await Promise.all([administrator.context.close(), helper.context.close(), person.context.close(), visitor.close()]);
});
