import { randomUUID } from "node:crypto";
import type { APIRequestContext, Browser, BrowserContext } from "@playwright/test";
import { unzipSync } from "fflate";
import { createAccount, signInWithPassword, signOut, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { moveInterviewTo, plantInterviews, sealedColumn, sealedFile, sealedFileName, withE2eDatabase } from "./support";

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

function plantAttachment(email: string, interviewId: string, secret: string): string {
  const id = randomUUID();
  return withE2eDatabase((db) => {
    const user = db.prepare("select id from users where email = ?").get(email) as { id: string };
    const key = `${user.id}/${id}.pdf`;
    db.prepare("insert into attachments (id, user_id, interview_id, file_name, content_type, size, storage_key, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)").run(
      id, user.id, interviewId, sealedFileName(id, `${secret}.pdf`), "application/pdf", 40, key, new Date().toISOString(),
    );
    // The bytes, where the server keeps them by default (app/storage/database-storage.server.ts).
    db.prepare("insert into attachment_files (attachment_id, bytes, written_at) values (?, ?, ?)").run(id, sealedFile(Buffer.from(`%PDF-1.4\n% ${secret}\n%%EOF\n`)), new Date().toISOString());
    return id;
  });
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
      // A redirect never leads to the thing asked for.
      expect([interviewId!, completedId!, attachmentId].some((id) => answer.location.includes(id)), `${role}: ${probe.name} redirects to ${answer.location}`).toBe(false);
      if (role === "other") expect(answer.status, `another person: ${probe.name}`).toBe(404);
    }
  }
  expect(stored(), "the interview changed").toEqual(before);

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
