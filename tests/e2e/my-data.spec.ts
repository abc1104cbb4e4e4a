import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { createAccountWithCodes, PASSWORD, signInWithPassword, totpCode, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { outboxMessages, plantInterviews, sealedFile, sealedFileName, setInterviewVars, withE2eDatabase } from "./support";

const summary = (page: Page) => page.getByRole("alert").filter({ hasText: "There is a problem" });

const answers = {
  "user name full te": { name: "User name full TE", type: "Text", repeating: false, values: [null, "Zoë Ångström"] },
  "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] },
  "company name te": { name: "Company name TE", type: "Text", repeating: false, values: [null, "ACME"] },
};

/** A Completed interview (with a document) and a Draft, and a file uploaded to the Draft, kept where the server keeps files. */
function plantData(email: string) {
  // Newest first: the Draft, then the Completed one.
  const [draft, completed] = plantInterviews(email, [
    { issueId: 2, status: "Completed", daysAgo: 1 },
    { issueId: 2, status: "Draft", daysAgo: 0 },
  ]);
  for (const id of [completed!, draft!]) setInterviewVars(id, answers);
  const attachmentId = randomUUID();
  const upload = Buffer.from(`%PDF-1.4\n% uploaded by ${email}\n%%EOF\n`);
  const userId = withE2eDatabase((db) => {
    const user = db.prepare("select id from users where email = ?").get(email) as { id: string };
    db.prepare("insert into attachments (id, user_id, interview_id, file_name, content_type, size, storage_key, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)").run(
      attachmentId, user.id, draft, sealedFileName(attachmentId, "payslip.pdf"), "application/pdf", upload.length, `${user.id}/${attachmentId}.pdf`, new Date().toISOString(),
    );
    db.prepare("insert into attachment_files (attachment_id, bytes, written_at) values (?, ?, ?)").run(attachmentId, sealedFile(upload), new Date().toISOString());
    return user.id;
  });
  return { completed: completed!, draft: draft!, attachmentId, upload, userId };
}

test.describe("your data, yours", () => {
  test("Download my data gives a zip with the profile, answers as JSON and ANX, the document and the uploaded file", async ({ page, axe }) => {
    const email = uniqueEmail("my-data");
    await createAccountWithCodes(page, email);
    const planted = plantData(email);

    await page.goto("/account/dashboard");
    await page.getByRole("link", { name: /^Download my data/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Download my data");
    await expect(page).toHaveTitle("Download my data | Legal Self-Help");
    await axe();

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download my data" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^My data \d{4}-\d{2}-\d{2}\.zip$/);
    const files = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
    const text = (name: string) => strFromU8(files[name]!);

    const profile = JSON.parse(text("profile.json"));
    expect(profile).toMatchObject({ firstName: "Ana", lastName: "Lim", email, twoFactorEnabled: true, recoveryCodesLeft: 10 });
    expect(Object.keys(profile).sort()).toEqual(["createdAt", "email", "emailVerifiedAt", "firstName", "lastName", "phone", "recoveryCodesLeft", "twoFactorEnabled", "updatedAt"]);
    expect(text("profile.json")).not.toMatch(/password|secret|hash/i);

    const interviews = JSON.parse(text("interviews.json")) as { id: string; status: string; folder: string; files: string[] }[];
    expect(interviews.map((i) => [i.id, i.status])).toEqual([
      [planted.completed, "Completed"],
      [planted.draft, "Draft"],
    ]);
    const [completed, draft] = interviews;
    expect(JSON.parse(text(`${completed!.folder}/answers.json`))["company name te"].values).toEqual([null, "ACME"]);
    expect(text(`${completed!.folder}/answers.anx`)).toContain('<Answer name="Company name TE"><TextValue>ACME</TextValue></Answer>');
    expect(text(`${draft!.folder}/answers.anx`)).toContain("<AnswerSet");
    const documentName = Object.keys(files).find((name) => name.startsWith(`${completed!.folder}/`) && name.endsWith(".pdf"));
    expect(documentName).toMatch(/\/Criminal records and spent convictions – .+ – \d{1,2} [A-Z][a-z]+ \d{4}\.pdf$/);
    const pdf = files[documentName!];
    expect(Buffer.from(pdf!.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(draft!.files).toEqual(["answers.json", "answers.anx"]);

    expect(JSON.parse(text("files.json"))).toEqual([expect.objectContaining({ id: planted.attachmentId, name: "payslip.pdf", path: "files/payslip.pdf" })]);
    expect(Buffer.from(files["files/payslip.pdf"]!).equals(planted.upload)).toBe(true);
    expect(text("README.txt")).toContain("Everything was included.");

    // Limited like the other costly features: the sixth in an hour gets the page again with the reason.
    for (let i = 0; i < 4; i++) expect((await page.request.post("/account/my-data/download", { form: {} })).status()).toBe(200);
    await page.getByRole("button", { name: "Download my data" }).click();
    await expect(page).toHaveURL(/\/account\/my-data\?wait=\d+$/);
    await expect(summary(page)).toContainText(/Too many attempts\. Please wait \d+ minutes? and try again\./);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Download my data");
    await axe();
  });

  test("Delete my account needs the password and a code, deletes everything, signs out and refuses the old sign-in", async ({ page, axe }) => {
    const email = uniqueEmail("delete-me");
    const { secret, codes } = await createAccountWithCodes(page, email);
    const planted = plantData(email);
    const other = uniqueEmail("delete-not-me");
    const otherPage = await page.context().browser()!.newPage();
    await createAccountWithCodes(otherPage, other);
    const kept = plantData(other);
    await otherPage.close();

    await page.goto("/account/dashboard");
    await page.getByRole("link", { name: /^Delete my account/ }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Delete my account");
    await expect(page.getByText("This cannot be undone.")).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: "every interview you started or completed" })).toBeVisible();
    await axe();

    const remove = page.getByRole("button", { name: "Delete my account" });
    await remove.click();
    await expect(summary(page)).toContainText("Password: This field is required.");
    await expect(summary(page)).toContainText("Code from your authenticator app, or a recovery code: This field is required.");
    await expect(page).toHaveTitle("Error: Delete my account | Legal Self-Help");
    await axe();

    await page.getByLabel("Password").fill("not my password 1");
    await page.getByLabel("Code from your authenticator app, or a recovery code").fill(totpCode(secret, 1));
    await remove.click();
    await expect(summary(page)).toContainText("The password is invalid.");
    await expect(page.getByLabel("Password")).toHaveAccessibleDescription(/The password is invalid\./);
    await axe();

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Code from your authenticator app, or a recovery code").fill("000000");
    await remove.click();
    await expect(summary(page)).toContainText("The verification code is invalid.");
    await axe();
    expect(withE2eDatabase((db) => db.prepare("select count(*) as n from users where email = ?").get(email))).toEqual({ n: 1 });

    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByLabel("Code from your authenticator app, or a recovery code").fill(codes[4]!);
    await remove.click();
    await expect(page).toHaveURL(/\/auth\/account-deleted$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Your account was deleted");
    await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();
    await axe();

    const left = withE2eDatabase((db) => {
      const count = (sql: string, ...args: unknown[]) => (db.prepare(sql).get(...args) as { n: number }).n;
      return {
        users: count("select count(*) as n from users where email = ?", email),
        sessions: count("select count(*) as n from sessions where user_id = ? or pending_user_id = ?", planted.userId, planted.userId),
        codes: count("select count(*) as n from recovery_codes where user_id = ?", planted.userId),
        interviews: count("select count(*) as n from interviews where user_id = ?", planted.userId),
        attachments: count("select count(*) as n from attachments where user_id = ?", planted.userId),
        files: count("select count(*) as n from attachment_files where attachment_id = ?", planted.attachmentId),
        outbox: count("select count(*) as n from outbox_messages where lower(to_address) = ? or lower(reply_to) = ?", email, email),
        otherInterviews: count("select count(*) as n from interviews where user_id = ?", kept.userId),
        otherFiles: count("select count(*) as n from attachment_files where attachment_id = ?", kept.attachmentId),
      };
    });
    expect(left).toEqual({ users: 0, sessions: 0, codes: 0, interviews: 0, attachments: 0, files: 0, outbox: 0, otherInterviews: 2, otherFiles: 1 });
    const messages = outboxMessages();
    expect(messages.filter((m) => m.to_address === email)).toEqual([]);
    expect(messages.filter((m) => m.to_address === other).length).toBeGreaterThan(0);
    expect(messages.some((m) => m.subject === "Record: an account was deleted" && m.to_address === "")).toBe(true);

    // The confirmation is shown once; the old email and password no longer sign in.
    await page.goto("/auth/account-deleted");
    await expect(page).toHaveURL(/\/$/);
    await signInWithPassword(page, email);
    await expect(summary(page)).toContainText("Wrong username or password.");
    await axe();
  });
});
