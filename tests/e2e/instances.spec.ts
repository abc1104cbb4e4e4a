import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { PDFDocument } from "@cantoo/pdf-lib";
import { type AppProcess, startApp } from "../support/app-process";
import { connectAdmin, databaseUrl, testPostgresUrl } from "../support/postgres";
import { createAccount, PASSWORD, signOut, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { outboxDataDirs } from "./support";
import { press, viewer } from "./viewer";

// Issue 13, part 4: two application processes, each with its own data folder and port, on one fresh
// PostgreSQL database, behave as one: a person signs up and uploads on the first, goes on on the second,
// downloads from the first; abuse limits and sign-out hold across both. Cookies belong to the host, not the
// port, so one browser holds one session for both, as behind a load balancer.

const basePort = Number(process.env.E2E_PORT ?? 3210) + 4;

/** A real one-page PDF, so that the assembled document can be checked to hold it. */
async function agreementPdf(): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.addPage([300, 300]).drawText("Tenancy agreement", { x: 20, y: 150 });
  return Buffer.from(await pdf.save());
}

async function signInAttempt(server: AppProcess, email: string, password: string) {
  const response = await fetch(`${server.url}/auth/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url },
    body: new URLSearchParams({ email, password }).toString(),
    redirect: "manual",
  });
  return { status: response.status, text: await response.text() };
}

test("two instances on one PostgreSQL database: sign up and upload on one, go on on the other, download from the first; limits and sign-out hold across both", async ({ browser, javaScriptEnabled }, testInfo) => {
  test.setTimeout(180_000);
  const port = basePort + (testInfo.project.name === "no-js" ? 2 : 0);
  const name = `lsh_e2e_${randomBytes(6).toString("hex")}`;
  const adminUrl = testPostgresUrl();
  const admin = await connectAdmin(adminUrl);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = databaseUrl(adminUrl, name);
  const dirs = [0, 1].map((i) => mkdtempSync(path.join(tmpdir(), `lsh-instance-${i}-`)));
  outboxDataDirs.push(...dirs);
  const servers: AppProcess[] = [];
  const env = { RATE_LIMIT_ADDRESS_FACTOR: "100" };
  try {
    // The first runs the migrations and loads the content; the second finds them done.
    servers.push(await startApp({ port, dataDir: dirs[0]!, databaseUrl: url, env }));
    servers.push(await startApp({ port: port + 1, dataDir: dirs[1]!, databaseUrl: url, env }));
    const [first, second] = servers as [AppProcess, AppProcess];
    const db = new pg.Client({ connectionString: url });
    await db.connect();
    try {
      const guide = readFileSync("tests/fixtures/upload-guide/Guide.json", "utf8");
      await db.query("insert into guides (id, title, published_version) values ('upload-test', 'Upload test guide', 1)");
      await db.query(
        "insert into guide_versions (guide_id, version, title, format, source, origin, uploaded_by_email, uploaded_at, published_at) values ('upload-test', 1, 'Upload test guide', 'json', $1, 'seed', 'seed', $2, $2)",
        [guide, new Date().toISOString()],
      );
      await db.query("insert into issues (id, category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (900, 1, 'Upload test', '', 'upload-test', 'upload-test/Guide.json', 'gpt-3.5-turbo', '')");

      const context = await browser.newContext({ javaScriptEnabled, baseURL: first.url });
      const page = await context.newPage();
      const email = uniqueEmail("instances");
      await createAccount(page, email);

      // First instance: answer the upload page with a PDF.
      await page.goto(`${first.url}/issues/900/interviews`);
      const frame = viewer(page);
      await frame.getByLabel(/Tenancy agreement/).setInputFiles({ name: "agreement.pdf", mimeType: "application/pdf", buffer: await agreementPdf() });
      await press(frame, "Continue");
      await expect(frame.getByText("Thank you. Your file is attached.")).toBeVisible();
      const { rows } = await db.query<{ interview_id: string; id: string }>("select a.interview_id, a.id from attachments a join users u on u.id = a.user_id where u.email = $1", [email]);
      expect(rows).toHaveLength(1);
      const [{ interview_id: interviewId, id: attachmentId }] = rows as [{ interview_id: string; id: string }];

      // Second instance: the same session, the interview where it was left, the file, and the end.
      await page.goto(`${second.url}/account/interview`);
      await expect(page.getByRole("link", { name: "Edit Upload test" })).toBeVisible();
      await page.goto(`${second.url}/issues/900/interviews/${interviewId}`);
      await expect(viewer(page).getByText("Thank you. Your file is attached.")).toBeVisible();
      const file = await page.request.get(`${second.url}/attachments/${attachmentId}`);
      expect(file.status(), "the uploaded file is served by the other instance").toBe(200);
      expect((await file.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
      await press(viewer(page), "Finish");
      await viewer(page).getByRole("button", { name: "Confirm and finish" }).click();
      await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();

      // First instance: the document, with the uploaded PDF in it.
      const document = await page.request.get(`${first.url}/account/interview/${interviewId}/download`);
      expect(document.headers()["content-type"]).toBe("application/pdf");
      // The guide has no templates: the document is the uploaded agreement (one page of 300 × 300 points).
      const assembled = await PDFDocument.load(await document.body());
      expect(assembled.getPages().map((p) => p.getSize())).toEqual([{ width: 300, height: 300 }]);

      // Sign-out on the first ends the session on the second too.
      const cookie = (await context.cookies()).filter((c) => c.name === "session").map((c) => `${c.name}=${c.value}`).join("; ");
      expect(cookie).not.toBe("");
      expect((await fetch(`${second.url}/account/interview`, { headers: { cookie }, redirect: "manual" })).status).toBe(200);
      await page.goto(`${first.url}/account/interview`);
      await signOut(page);
      for (const target of [`${second.url}/account/interview`, `${second.url}/viewer?issueId=900&interviewId=${interviewId}`]) {
        const refused = await fetch(target, { headers: { cookie }, redirect: "manual" });
        expect(refused.status, target).toBe(302);
        expect(refused.headers.get("location")).toMatch(/^\/($|auth\/sign-in\?)/);
        expect(refused.headers.get("set-cookie")).toMatch(/^session=;/);
      }
      await context.close();

      // Sign-in attempts are counted in the database: 10 per account in 15 minutes, wherever they land.
      for (let attempt = 0; attempt < 10; attempt++) {
        const answer = await signInAttempt(servers[attempt % 2]!, email, `wrong password ${attempt}`);
        expect(answer.status, `attempt ${attempt + 1}`).toBe(400);
      }
      for (const server of servers) {
        const answer = await signInAttempt(server, email, PASSWORD);
        expect(answer.status).toBe(429);
        expect(answer.text).toContain("Too many attempts. Please wait");
      }
    } finally {
      await db.end();
    }
  } finally {
    for (const server of servers) await server.stop();
    outboxDataDirs.splice(outboxDataDirs.length - dirs.length, dirs.length);
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    const cleaner = await connectAdmin(adminUrl);
    await cleaner.query(`drop database if exists ${name} with (force)`);
    await cleaner.end();
  }
});
