import { readFileSync } from "node:fs";
import { extractText } from "unpdf";
import { createAccount, PASSWORD, totpCode, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { interviewVars, moveInterviewTo, openedFileName, plantGuide, plantInterviews, plantUploadIssue, sealedFile, sealedFileName, setInterviewVars, withE2eDatabase } from "./support";
import { axeOnViewer, fillDate, press, viewer } from "./viewer";
import { readablePdf } from "../support/pdf";
import { plantSignedIn } from "./people";

test.describe("interview", () => {
  test("start from the issue page, answer pages, leave, resume at the same page, Back keeps answers", async ({ page, axe }) => {
    await plantSignedIn(page, uniqueEmail("interview"));
    await page.goto("/issues/2");
    await page.locator("main").getByRole("link", { name: "Start now" }).click();
    await expect(page).toHaveURL(/\/issues\/2\/interviews$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Criminal records and spent convictions");
    await axe();
    const frame = viewer(page);
    await expect(frame.locator("#viewer-heading")).toContainText("Re-Entry");
    await axeOnViewer(page, axe);

    await press(frame, "Continue");
    await press(frame, "Continue");
    await press(frame, "Get Started");

    // A required field left empty: the error summary and the field say so.
    await frame.getByLabel(/^First/).fill("Ann");
    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("There is a problem");
    await expect(frame.getByLabel(/^Last/)).toHaveAttribute("aria-invalid", "true");
    await expect(frame.getByLabel(/^First/)).toHaveValue("Ann");

    await frame.getByLabel(/^Last/).fill("Lee");
    await frame.getByLabel("Female").check();
    await press(frame, "Continue");
    await expect(frame.getByRole("button", { name: "Already released" })).toBeVisible();

    // Back returns to the previous page with its answers.
    await press(frame, "Back");
    await expect(frame.getByLabel(/^First/)).toHaveValue("Ann");
    await expect(frame.getByLabel(/^Last/)).toHaveValue("Lee");
    await expect(frame.getByLabel("Female")).toBeChecked();
    await press(frame, "Continue");
    await expect(frame.getByRole("button", { name: "Already released" })).toBeVisible();

    // Leave, and come back from My interviews → Edit: the same page.
    await page.goto("/account/interview");
    await expect(page.locator("table.interviews tbody tr")).toHaveCount(1);
    await page.getByRole("link", { name: /Edit/ }).click();
    await expect(page).toHaveURL(/\/issues\/2\/interviews\/[0-9a-f-]{36}$/);
    await expect(viewer(page).getByRole("button", { name: "Already released" })).toBeVisible();
  });

  test("signed-out visitors go to sign-in; another user's interview id is 404 and changes nothing", async ({ page, browser, javaScriptEnabled }) => {
    await page.goto("/issues/2/interviews");
    await expect(page).toHaveURL(/\/auth\/sign-in\?returnTo=%2Fissues%2F2%2Finterviews$/);

    const owner = await browser.newContext({ javaScriptEnabled });
    const ownerPage = await owner.newPage();
    await plantSignedIn(ownerPage, uniqueEmail("owner"));
    await ownerPage.goto("/issues/2/interviews");
    await press(viewer(ownerPage), "Continue");
    await ownerPage.goto("/account/interview");
    const edit = await ownerPage.getByRole("link", { name: /Edit/ }).getAttribute("href");
    const interviewId = edit!.split("/").pop()!;
    await owner.close();

    await plantSignedIn(page, uniqueEmail("other"));
    expect((await page.goto(`/issues/2/interviews/${interviewId}`))?.status()).toBe(404);
    expect((await page.goto(`/viewer?issueId=2&interviewId=${interviewId}`))?.status()).toBe(404);
    const post = await page.request.post(`/viewer?issueId=2&interviewId=${interviewId}`, { form: { _page: "2-Introduction 2", _button: "0" } });
    expect(post.status()).toBe(404);
    expect((await page.goto(`/interviews/${interviewId}/answers`))?.status()).toBe(404);
  });

  test("the viewer asks visitors to sign in, sends a revoked session to /, and answers an unreadable form clearly", async ({ page, axe }) => {
    const visitor = await page.goto("/viewer?issueId=2");
    expect(visitor?.status()).toBe(401);
    await expect(page.getByRole("status")).toContainText("Please sign in to continue your interview.");
    await expect(page).toHaveTitle("Interview");
    await axe();

    await plantSignedIn(page, uniqueEmail("viewer-edges"));
    const opened = await page.goto("/viewer?issueId=2");
    expect(opened?.status()).toBe(200);
    await expect(page.locator("[data-viewer]")).toBeVisible();
    await expect(page).toHaveTitle(/– Criminal records and spent convictions \| Legal Self-Help$/);
    expect(await page.locator('link[rel="stylesheet"]').getAttribute("href")).toMatch(/^\/assets\/.+\.css$/);
    // What the frame's script fetches: the title and the page, nothing of the document around them.
    const fragment = await page.request.get("/viewer?issueId=2", { headers: { "viewer-fetch": "1" } });
    expect(fragment.status()).toBe(200);
    expect(fragment.headers()["cache-control"]).toBe("no-store");
    expect(await fragment.text()).toMatch(/^<title>[^<]+ \| Legal Self-Help<\/title><div class="viewer" data-viewer=""/);
    expect(await fragment.text()).not.toMatch(/<html|<script/);

    const broken = await page.request.post("/viewer?issueId=2", { headers: { "content-type": "multipart/form-data; boundary=none" }, data: "not a form" });
    expect(broken.status()).toBe(400);
    expect(await broken.text()).toContain("What was sent could not be read.");
    const put = await page.request.fetch("/viewer?issueId=2", { method: "PUT" });
    expect(put.status()).toBe(405);
    expect(put.headers().allow).toBe("GET, HEAD, POST");

    const session = (await page.context().cookies()).find((cookie) => cookie.name.endsWith("session"))!;
    await page.goto("/");
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();
    await page.context().addCookies([session]);
    const revoked = await page.request.get("/viewer?issueId=2", { maxRedirects: 0 });
    expect(revoked.status()).toBe(302);
    expect(revoked.headers()["location"]).toBe("/");
    expect(revoked.headers()["set-cookie"]).toMatch(new RegExp(`^${session.name}=[^;]*;.*Max-Age=0`, "i"));
    // The frame's script, which shows what comes back in the frame, is asked to sign in instead.
    await page.context().addCookies([session]);
    const fetched = await page.request.post("/viewer?issueId=2", { headers: { "viewer-fetch": "1" }, form: { _page: "1-Introduction", _button: "0" }, maxRedirects: 0 });
    expect(fetched.status()).toBe(401);
    expect(await fetched.text()).toContain("Please sign in to continue your interview.");
    expect(fetched.headers()["set-cookie"]).toMatch(new RegExp(`^${session.name}=[^;]*;.*Max-Age=0`, "i"));
    // With no interview open, the viewer speaks the person's language (here their browser's).
    await page.context().clearCookies();
    const spanish = { headers: { "accept-language": "es-MX,es;q=0.9", "sec-fetch-dest": "iframe" }, maxRedirects: 0 };
    const signedOut = await page.request.get("/viewer?issueId=2", spanish);
    expect(signedOut.status()).toBe(401);
    expect(await signedOut.text()).toContain("Inicie sesión para continuar su entrevista.");
  });

  test("EXIT saves, signs out and goes to the home page, which says so until dismissed or signed in", async ({ page, axe }) => {
    const email = uniqueEmail("exit");
    const secret = await createAccount(page, email);
    await page.goto("/issues/2/interviews");
    const frame = viewer(page);
    await press(frame, "Continue");
    await press(frame, "Continue");
    await press(frame, "Get Started");
    await frame.getByLabel(/^First/).fill("Ann");
    await frame.getByLabel(/^Last/).fill("Lee");
    await press(frame, "Continue");
    await press(frame, "Already released");
    await press(frame, "No");
    await press(frame, "I need help finding this information");
    await frame.getByRole("button", { name: "Exit and come back later." }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();
    const notice = page.getByRole("status").filter({ hasText: "You are signed out. Your answers are saved: sign in to continue your interview." });
    await expect(notice).toBeVisible();
    await axe();
    const savedCookie = (await page.context().cookies()).find((cookie) => cookie.name === "__answers_saved")!;
    // It stays (a reload, another page and back) until the person dismisses it.
    await page.goto("/about");
    await page.goto("/");
    await expect(notice).toBeVisible();
    await notice.getByRole("button", { name: "Dismiss" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await expect(notice).toHaveCount(0);
    await page.reload();
    await expect(notice).toHaveCount(0);

    // Or until the person signs in again: signed out later, the home page no longer says it.
    await page.context().addCookies([savedCookie]);
    await page.goto("/");
    await expect(notice).toBeVisible();
    await notice.getByRole("link", { name: "Sign in" }).click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign In" }).click();
    await page.getByLabel("Verification code").fill(totpCode(secret, 1));
    await page.getByRole("button", { name: "Verify" }).click();
    // Back at the interview they saved (issue 25).
    await expect(page).toHaveURL(/\/issues\/2\/interviews\/[0-9a-f-]{36}$/);
    await page.goto("/");
    await expect(notice).toHaveCount(0);
    await page.getByRole("button", { name: "Sign out" }).first().click();
    await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();
    await expect(notice).toHaveCount(0);
  });

  test("completion marks the interview Completed and shows Congratulations", async ({ page, axe }) => {
    const email = uniqueEmail("finish");
    await plantSignedIn(page, email);
    // An interview saved on the guide's last page (the whole path is walked in app/a2j/reentry.test.ts).
    const [id] = plantInterviews(email, [{ issueId: 2, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(id!, "7-Finish instructions");
    const answers = {
      "user name full te": { name: "User name full TE", type: "Text", repeating: false, values: [null, "Ann Lee"] },
      "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] },
    };
    setInterviewVars(id!, answers);
    await page.goto(`/issues/2/interviews/${id}`);
    await press(viewer(page), "Finish");
    await viewer(page).getByRole("button", { name: "Confirm and finish" }).click();
    await expect(page).toHaveURL(new RegExp(`/issues/2/interviews/${id}$`));
    await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    await expect(page.getByRole("link", { name: "Get My Document" })).toHaveAttribute("href", `/account/interview/${id}/download`);
    const document = await page.request.get(`/account/interview/${id}/download`);
    expect(document.headers()["content-type"]).toBe("application/pdf");
    expect((await document.body()).subarray(0, 5).toString("latin1")).toBe("%PDF-");
    await expect(page.getByRole("link", { name: "Go to My Account" })).toHaveAttribute("href", "/account/dashboard");
    await axe();
    await page.goto("/account/interview");
    await expect(page.locator(".status")).toHaveText("Completed");
  });
});

// The message layer is the viewer's script; without it the forms move the whole window (tested above), so the
// no-js project leaves out tests tagged @script-only (playwright.config.ts).
test.describe("message layer", { tag: "@script-only" }, () => {

  test("height, scrollToTop, continue, token; unknown actions warn; foreign messages are ignored", async ({ page }) => {
    const warnings: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "warning") warnings.push(message.text());
    });
    await plantSignedIn(page, uniqueEmail("messages"));
    await page.goto("/issues/2/interviews");
    const frameElement = page.locator("iframe.viewer-frame");
    const frame = viewer(page);
    await expect(frame.getByRole("heading", { level: 1 })).toBeVisible();

    // height: the frame becomes the viewer's height + 20 px.
    const contentFrame = page.frames().find((f) => f.url().includes("/viewer?"))!;
    const contentHeight = () => contentFrame.evaluate(() => Math.ceil(document.querySelector("main")!.getBoundingClientRect().height));
    await expect.poll(async () => frameElement.evaluate((el) => el.style.height)).toBe(`${(await contentHeight()) + 20}px`);
    // It settles: no feedback between the frame's size and the content's.
    await page.waitForTimeout(300);
    expect(await frameElement.evaluate((el) => el.style.height)).toBe(`${(await contentHeight()) + 20}px`);

    // continue after a save: the host page's address names the new interview; scrollToTop on a page change.
    await page.evaluate(() => window.scrollTo(0, 400));
    await press(frame, "Continue");
    await expect(page).toHaveURL(/\/issues\/2\/interviews\/[0-9a-f-]{36}$/);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);

    // token: a reload of the saved interview hands the viewer a short-lived token for it.
    await page.reload();
    const reloaded = page.frames().find((f) => f.url().includes("/viewer?"))!;
    await expect.poll(() => reloaded.evaluate(() => (window as unknown as { interviewToken?: string }).interviewToken ?? "")).toMatch(/^[\w-]+\.[\w-]+$/);
    const cookies = await page.context().cookies();
    const token = await reloaded.evaluate(() => (window as unknown as { interviewToken: string }).interviewToken);
    expect(cookies.some((cookie) => cookie.value === token)).toBe(false);

    // An unknown action only warns.
    await reloaded.evaluate(() => window.parent.postMessage({ action: "dance" }, window.location.origin));
    await expect.poll(() => warnings.some((w) => w.includes("Unknown message from the interview viewer") && w.includes("dance"))).toBe(true);

    // A message from another origin, or from the host page itself, changes nothing.
    const before = await frameElement.evaluate((el) => el.style.height);
    await page.evaluate(() => {
      const frameWindow = document.querySelector("iframe")!.contentWindow;
      window.dispatchEvent(new MessageEvent("message", { data: { action: "height", height: 5 }, origin: "https://evil.example", source: frameWindow }));
      window.postMessage({ action: "height", height: 7 }, "*");
    });
    await page.waitForTimeout(200);
    expect(await frameElement.evaluate((el) => el.style.height)).toBe(before);
  });

  test("with script, the end of the interview is told by the viewer and the host moves on", async ({ page }) => {
    const email = uniqueEmail("finish-js");
    await plantSignedIn(page, email);
    const [id] = plantInterviews(email, [{ issueId: 2, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(id!, "7-Finish instructions");
    await page.goto(`/issues/2/interviews/${id}`);
    await press(viewer(page), "Finish");
    await expect(viewer(page).getByRole("button", { name: "Confirm and finish" })).not.toHaveAttribute("formtarget");
    await viewer(page).getByRole("button", { name: "Confirm and finish" }).click();
    await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
  });
});

test.describe("attachments", () => {
  test("nothing, 5 MB + 1 byte and a renamed non-PDF are refused with their messages; a PDF is kept for its owner only", async ({
    page,
    browser,
    javaScriptEnabled,
    axe,
  }) => {
    plantUploadIssue();
    const email = uniqueEmail("upload");
    await plantSignedIn(page, email);
    await page.goto("/issues/900/interviews");
    const frame = viewer(page);
    // Looked up at each use: with script the frame takes over from the page in place at the first press.
    const file = () => frame.getByLabel(/Tenancy agreement/);

    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("No files uploaded");
    await expect(file()).toHaveAccessibleDescription(/No files uploaded/);
    await axeOnViewer(page, axe);

    const pdfHeader = Buffer.from("%PDF-1.4\n");
    await file().setInputFiles({ name: "big.pdf", mimeType: "application/pdf", buffer: Buffer.concat([pdfHeader, Buffer.alloc(5 * 1024 * 1024 + 1 - pdfHeader.length, 32)]) });
    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("The file is too large: it must be under 5 MB.");

    await file().setInputFiles({ name: "contract.pdf", mimeType: "application/pdf", buffer: Buffer.from("GIF89a not really a pdf") });
    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("Only PDF or Word files can be uploaded.");

    // Files that start like a PDF but cannot be read are refused at once, saying what to do.
    await file().setInputFiles({ name: "agreement.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4\n% not a PDF after all\n%%EOF\n") });
    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("This PDF is damaged and cannot be opened. Please save or print it to PDF again and upload the new copy.");
    await expect(file()).toHaveAccessibleDescription(/This PDF is damaged/);
    await axeOnViewer(page, axe);
    const whole = readablePdf(4000);
    await file().setInputFiles({ name: "agreement.pdf", mimeType: "application/pdf", buffer: whole.subarray(0, 2000) });
    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("This PDF is incomplete: it may not have finished downloading or saving.");

    await file().setInputFiles({ name: "agreement.pdf", mimeType: "application/pdf", buffer: readablePdf() });
    await press(frame, "Continue");
    await expect(frame.getByText("Thank you. Your file is attached.")).toBeVisible();

    const attachment = withE2eDatabase(
      (db) =>
        db.prepare("select a.id, a.file_name, a.interview_id from attachments a join users u on u.id = a.user_id where u.email = ?").get(email) as {
          id: string;
          file_name: string;
          interview_id: string;
        },
    );
    // Stored sealed, the name included (docs/decisions/0019-data-encryption.md).
    expect(attachment.file_name).not.toContain("agreement");
    expect(openedFileName(attachment.id, attachment.file_name)).toBe("agreement.pdf");
    expect(interviewVars(attachment.interview_id)["evidence at"]!.values.at(-1)).toBe(`attachments/${attachment.id}.pdf`);
    const info = await page.request.get(`/attachments/${attachment.id}/info`);
    expect(await info.json()).toEqual({ url: `/attachments/${attachment.id}` });
    expect((await (await page.request.get(`/attachments/${attachment.id}`)).body()).subarray(0, 5).toString()).toBe("%PDF-");

    const other = await browser.newContext({ javaScriptEnabled });
    const otherPage = await other.newPage();
    await plantSignedIn(otherPage, uniqueEmail("not-owner"));
    expect((await otherPage.request.get(`/attachments/${attachment.id}/info`)).status()).toBe(404);
    expect((await otherPage.request.get(`/attachments/${attachment.id}`)).status()).toBe(404);
    await other.close();
  });
});

test.describe("a person's document with an attachment that cannot be read", () => {
  test("still downloads: the rest of the document, and a last page naming the file", async ({ page }) => {
    const email = uniqueEmail("broken-attachment");
    await plantSignedIn(page, email);
    const [completed] = plantInterviews(email, [{ issueId: 2, status: "Completed", daysAgo: 0 }]);
    // Kept before uploads were read whole: it starts like a PDF, and is none. Planted sealed, as the server keeps files.
    const attachmentId = crypto.randomUUID();
    withE2eDatabase((db) => {
      const user = db.prepare("select id from users where email = ?").get(email) as { id: string };
      db.prepare("insert into attachments (id, user_id, interview_id, file_name, content_type, size, storage_key, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)").run(
        attachmentId, user.id, completed, sealedFileName(attachmentId, "Bank statement.pdf"), "application/pdf", 30, `${user.id}/${attachmentId}.pdf`, new Date().toISOString(),
      );
      db.prepare("insert into attachment_files (attachment_id, bytes, written_at) values (?, ?, ?)").run(attachmentId, sealedFile(Buffer.from("%PDF-1.7\n1 0 obj\n<< /Type\n%%EOF\n")), new Date().toISOString());
    });
    setInterviewVars(completed!, {
      "user name full te": { name: "User name full TE", type: "Text", repeating: false, values: [null, "Zoë Ångström"] },
      "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] },
      "company name te": { name: "Company name TE", type: "Text", repeating: false, values: [null, "ACME"] },
      "statement at": { name: "Statement AT", type: "Attachment", repeating: false, values: [null, `attachments/${attachmentId}.pdf`] },
    });

    const download = await page.request.get(`/account/interview/${completed}/download`);
    expect(download.status()).toBe(200);
    expect(download.headers()["content-type"]).toBe("application/pdf");
    const { text } = await extractText(new Uint8Array(await download.body()), { mergePages: false });
    const pages = (text as string[]).map((t) => t.replace(/\s+/g, " ").trim());
    expect(pages.length).toBeGreaterThan(1);
    expect(pages[0]).toContain("Zoë Ångström");
    expect(pages.at(-1)).toContain("These files could not be included: • Bank statement.pdf");
  });
});

test.describe("author texts", () => {
  test("a field's own invalid prompt, its label, the help and the buttons show their macros evaluated", async ({ page, axe }) => {
    const guide = readFileSync("tests/fixtures/macro-texts-guide/Guide.json", "utf8");
    withE2eDatabase((db) => {
      plantGuide(db, "macro-texts-test", "Author texts test guide", guide);
      db.prepare("insert into issues (id, category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (901, 1, 'Author texts test', '', 'macro-texts-test', 'macro-texts-test/Guide.json', 'gpt-3.5-turbo', '') on conflict do nothing").run();
    });
    await plantSignedIn(page, uniqueEmail("macros"));
    await page.goto("/issues/901/interviews");
    const frame = viewer(page);
    await frame.getByLabel("First name").fill("Renée");
    await press(frame, "Continue");
    await expect(frame.getByRole("heading", { name: "When did Renée die?" })).toBeVisible();
    await expect(frame.getByRole("group", { name: /Date Renée died/ })).toBeVisible();
    await expect(frame.getByText("Why we ask about Renée")).toBeVisible();

    await fillDate(frame, /Date Renée died/, { day: "1", month: "1", year: "2999" });
    await press(frame, "Save Renée's date", { stays: true });
    const message = "Please enter the date Renée died. It cannot be in the future.";
    await expect(frame.getByRole("alert")).toContainText(message);
    // The author's prompt, then the field's limit it does not say (issue 29): today's date, in Singapore's style.
    await expect(frame.locator(".field__error")).toHaveText(new RegExp(`^${message.replace(/\./g, "\\.")} Please enter a date on or before \\d{1,2} [A-Z][a-z]+ \\d{4}\\.$`));
    await expect(frame.getByText("%%")).toHaveCount(0);
    await axeOnViewer(page, axe);
  });
});

test.describe("preview", () => {
  test("runs a guide without saving anything; the end buttons only say what they would do", async ({ page, axe }) => {
    await page.goto("/preview/re-entry-navigator");
    await expect(page).toHaveURL(/\/auth\/sign-in\?returnTo=%2Fpreview%2Fre-entry-navigator$/);
    const email = uniqueEmail("preview");
    await plantSignedIn(page, email);
    expect((await page.goto("/preview/no-such-guide"))?.status()).toBe(404);
    await page.goto("/preview/re-entry-navigator");
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Preview:");
    await axe();
    const frame = viewer(page);
    await expect(frame.getByText("Preview: nothing you enter is saved.")).toBeVisible();
    await press(frame, "Continue");
    await press(frame, "Continue");
    await press(frame, "Back");
    await press(frame, "Continue");
    await frame.getByRole("button", { name: "Exit", exact: true }).click();
    await expect(frame.getByText("Preview: the FAIL button was pressed. Nothing was saved.")).toBeVisible();
    const count = withE2eDatabase(
      (db) => db.prepare("select count(*) as n from interviews i join users u on u.id = i.user_id where u.email = ?").get(email) as { n: number },
    );
    expect(count.n).toBe(0);
  });
});

test.describe("a project guide with a loop", () => {
  test("letter of demand: each unpaid amount in the loop, the total, Back into the loop, resume", async ({ page, axe }) => {
    await plantSignedIn(page, uniqueEmail("loop"));
    await page.goto("/issues/9/interviews");
    const frame = viewer(page);
    await press(frame, "Start");
    await frame.getByLabel(/^Your full name/).fill("Ana Lim");
    await press(frame, "Continue");
    await frame.getByLabel(/^A person/).check();
    await press(frame, "Continue");
    await frame.getByLabel(/^Name/).fill("Ben Tan");
    await press(frame, "Continue");
    await frame.getByLabel(/^Money I lent/).check();
    await press(frame, "Continue");
    await frame.getByLabel(/^Number of unpaid amounts/).selectOption("2");
    await press(frame, "Continue");
    for (const [what, amount, month] of [
      ["Loan in March", "1000", "3"],
      ["Loan in June", "250.50", "6"],
    ]) {
      await axeOnViewer(page, axe);
      await expect(frame.locator(".viewer__step")).toHaveText(`Step 4 of 5: What you are owed – Item ${what === "Loan in March" ? 1 : 2} of 2`);
      await frame.getByLabel(/^What is it for/).fill(what!);
      await frame.getByLabel(/^Amount/).fill(amount!);
      await expect(frame.getByLabel(/^Amount/)).toHaveAttribute("inputmode", "decimal");
      await fillDate(frame, /^Date it was due/, { day: "1", month: month!, year: "2025" });
      await press(frame, "Continue");
    }
    await expect(frame.locator(".viewer__question")).toContainText("1,250.50");
    // Back into the loop: the second amount, as it was entered.
    await press(frame, "Back");
    await expect(frame.getByLabel(/^What is it for/)).toHaveValue("Loan in June");
    await expect(frame.getByLabel(/^Amount/)).toHaveValue("250.5");
    await press(frame, "Continue");
    await expect(frame.locator(".viewer__question")).toContainText("1,250.50");
    // Leave and come back: the same page.
    await page.goto("/account/interview");
    await page.getByRole("link", { name: /Edit/ }).click();
    await expect(viewer(page).locator(".viewer__question")).toContainText("1,250.50");
  });
});

test.describe("assembly endpoint", () => {
  test("POST /assemble answers like A2J DAT for signed-in people, and not for visitors", async ({ page }) => {
    const visitor = await page.request.post("/assemble", { form: { guideId: "re-entry-navigator", answers: "{}" }, maxRedirects: 0 });
    expect(visitor.status()).toBe(302);
    expect(visitor.headers()["location"]).toBe("/auth/sign-in");
    await plantSignedIn(page, uniqueEmail("assemble"));
    const answers = JSON.stringify({
      "client first name te": { name: "Client first name TE", type: "Text", repeating: false, values: [null, "Ann"] },
      "pap needed tf": { name: "PAP needed TF", type: "TF", repeating: false, values: [null, true] },
    });
    const response = await page.request.post("/assemble", { form: { guideId: "re-entry-navigator", answers } });
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/pdf");
    expect((await response.body()).subarray(0, 5).toString()).toBe("%PDF-");
    const bad = await page.request.post("/assemble", { form: { guideId: "re-entry-navigator" } });
    expect(bad.status()).toBe(400);
  });
});
