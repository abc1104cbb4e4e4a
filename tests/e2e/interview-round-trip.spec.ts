import type { Frame, Page } from "@playwright/test";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { moveInterviewTo, plantInterviews, plantUploadIssue, withE2eDatabase } from "./support";
import { press, viewer } from "./viewer";
import { readablePdf } from "../support/pdf";
import { plantSignedIn } from "./people";

// Issue 24, part 4 (docs/decisions/0036-one-round-trip-per-step.md): with script an interview step is one
// request, answered with the next page, which the frame swaps in; the interview page shows the first page
// itself, and the frame takes over at the first step. Issue 25, finding 3: without script a page with errors
// stays in the interview page, under the site's header and breadcrumb.

const SMALL_CLAIMS = "Small claims for money or goods";

/** The requests a page and its frame make to the server for pages (documents, fetches, form posts), as sent. */
function pageRequests(page: Page) {
  const seen: { method: string; path: string; fetched: boolean; status?: number }[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (!["document", "fetch", "xhr"].includes(request.resourceType())) return;
    seen.push({ method: request.method(), path: url.pathname, fetched: request.headers()["viewer-fetch"] === "1" });
  });
  page.on("response", (response) => {
    const entry = [...seen].reverse().find((r) => r.path === new URL(response.url()).pathname && r.status === undefined);
    if (entry) entry.status = response.status();
  });
  const asked = () => seen.map(({ method, path, fetched, status }) => `${method} ${path}${fetched ? " (fetch)" : ""} ${status ?? "…"}`);
  return {
    /** Waits until what was asked since the last call (answered) is `expected`. */
    async were(expected: string[]) {
      await expect.poll(asked).toEqual(expected);
      seen.length = 0;
    },
    /** Forgets what was asked so far. */
    forget() {
      seen.length = 0;
    },
  };
}

/** The viewer's frame: its document, once it shows a page. */
function viewerFrame(page: Page): Frame {
  return page.frames().find((f) => f !== page.mainFrame() && f.url().includes("/viewer?"))!;
}

/** The title of the frame's document and the accessible name of what has focus in it. */
function focusIn(frame: Frame) {
  return frame.evaluate(() => {
    const target = document.activeElement as HTMLElement | null;
    const labelledBy = target?.getAttribute("aria-labelledby");
    const name = labelledBy ? document.getElementById(labelledBy)?.textContent : target?.textContent;
    return { title: document.title, focused: !target || target.tagName === "BODY" || !document.hasFocus() ? "" : (name ?? "").trim() };
  });
}

test.describe("one round trip per step", { tag: "@script-only" }, () => {
  test("the first page comes with the interview page; each step is one request answered with the next page; history, titles and focus as after a full load", async ({ page, axe }) => {
    await plantSignedIn(page, uniqueEmail("round-trip"));
    const requests = pageRequests(page);
    await page.goto("/issues/9/interviews");
    // The question is in the interview page itself; the frame loads it unseen and out of reach.
    const welcome = `Welcome. – Step 1 of 5 – ${SMALL_CLAIMS} | Legal Self-Help`;
    await expect(page.locator(".viewer-inline #viewer-heading")).toHaveText("Welcome.");
    await expect(page).toHaveTitle(welcome);
    const frameElement = page.locator("iframe.viewer-frame");
    await expect(frameElement).toHaveAttribute("src", /^\/viewer\?/);
    await expect(frameElement).toHaveAttribute("inert", "");
    await expect(frameElement).toBeHidden();
    await expect.poll(() => viewerFrame(page)?.locator("#viewer-heading").textContent()).toBe("Welcome.");
    await requests.were(["GET /issues/9/interviews 200", "GET /viewer 200"]);
    await axe();

    // The first step: the frame takes it over and shows the next page; one request.
    const frame = viewer(page);
    await press(frame, "Start");
    const details = `First, tell us about you. – Step 2 of 5 – ${SMALL_CLAIMS} | Legal Self-Help`;
    await expect(frameElement).toBeVisible();
    await expect(page.locator(".viewer-inline")).toHaveCount(0);
    await expect(page).toHaveURL(/\/issues\/9\/interviews\/[0-9a-f-]{36}$/);
    const interviewId = page.url().split("/").pop()!;
    await expect.poll(() => focusIn(viewerFrame(page))).toEqual({ title: details, focused: "First, tell us about you." });
    await expect(page).toHaveTitle(details);
    // The frame's address names the interview now, as the redirect's did.
    expect(viewerFrame(page).url()).toContain(`interviewId=${interviewId}`);
    await requests.were(["POST /viewer (fetch) 200"]);
    const historyLength = await page.evaluate(() => history.length);

    // Errors: focus on the error summary, "Error: " in both titles, the height message follows the longer page.
    const heightBefore = await frameElement.evaluate((el) => el.style.height);
    await press(frame, "Continue", { stays: true });
    await expect.poll(() => focusIn(viewerFrame(page))).toEqual({ title: `Error: ${details}`, focused: "There is a problem" });
    await expect(page).toHaveTitle(`Error: ${details}`);
    await expect.poll(() => frameElement.evaluate((el) => el.style.height)).not.toBe(heightBefore);
    const contentHeight = await viewerFrame(page).evaluate(() => Math.ceil(document.querySelector("main")!.getBoundingClientRect().height));
    await expect.poll(() => frameElement.evaluate((el) => el.style.height)).toBe(`${contentHeight + 20}px`);
    await requests.were(["POST /viewer (fetch) 400"]);
    await axe();

    await frame.getByLabel(/^Your full name/).fill("Ana Lim");
    await frame.getByLabel(/^Your postal address/).fill("1 Main Street");
    await page.evaluate(() => window.scrollTo(0, 300));
    await press(frame, "Continue");
    const who = `Who owes you the money? – Step 3 of 5 – ${SMALL_CLAIMS} | Legal Self-Help`;
    await expect.poll(() => focusIn(viewerFrame(page))).toEqual({ title: who, focused: "Who owes you the money?" });
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await requests.were(["POST /viewer (fetch) 200"]);
    // Each step is an entry in the history, as a full load is.
    expect(await page.evaluate(() => history.length)).toBe(historyLength + 2);

    // Back and forward: the interview where it is, as loading the page again would show it, ready to go on.
    await page.evaluate(() => history.back());
    await requests.were(["GET /viewer (fetch) 200"]);
    await expect.poll(() => focusIn(viewerFrame(page))).toEqual({ title: who, focused: "Who owes you the money?" });
    await page.evaluate(() => history.forward());
    await requests.were(["GET /viewer (fetch) 200"]);
    await expect(frame.locator("#viewer-heading")).toHaveText("Who owes you the money?");
    await frame.getByLabel(/^A person/).check();
    await press(frame, "Continue");
    await expect(frame.getByLabel(/^Name/)).toBeVisible();
    // The interview's own Back: one request too, the answers kept.
    await press(frame, "Back");
    await expect(frame.getByLabel(/^A person/)).toBeChecked();
    await requests.were(["POST /viewer (fetch) 200", "POST /viewer (fetch) 200"]);

    // No connection: the page stays as it was, with what was chosen, and says so; pressed again, it goes on.
    await page.context().setOffline(true);
    await frame.getByLabel(/^A business/).check();
    await press(frame, "Continue", { stays: true });
    const problem = "Your answers could not be sent. Check your connection, then press the button again.";
    await expect(frame.getByRole("alert")).toHaveText(problem);
    await expect.poll(() => focusIn(viewerFrame(page))).toEqual({ title: who, focused: problem });
    await expect(frame.getByLabel(/^A business/)).toBeChecked();
    await expect(frame.getByRole("button", { name: "Continue", exact: true })).toBeEnabled();
    await axe();
    await page.context().setOffline(false);
    requests.forget();
    await press(frame, "Continue");
    await expect(frame.getByRole("alert")).toHaveCount(0);
    await requests.were(["POST /viewer (fetch) 200"]);
    await press(frame, "Back");
    requests.forget();

    // A reload shows the page in place again, where the interview is.
    await page.reload();
    await expect(page.locator(".viewer-inline #viewer-heading")).toHaveText("Who owes you the money?");
    await expect(page).toHaveTitle(who);
  });

  test("an upload, Finish, Check your answers and Confirm and finish go one request each; Save and finish later too", async ({ page }) => {
    plantUploadIssue();
    const email = uniqueEmail("round-trip-upload");
    await plantSignedIn(page, email);
    const requests = pageRequests(page);
    await page.goto("/issues/900/interviews");
    await requests.were(["GET /issues/900/interviews 200", "GET /viewer 200"]);
    const frame = viewer(page);
    // Chosen on the page in place: the frame takes the file over with the rest of the form.
    await frame.getByLabel(/Tenancy agreement/).setInputFiles({ name: "agreement.pdf", mimeType: "application/pdf", buffer: readablePdf() });
    await press(frame, "Continue");
    await expect(frame.getByText("Thank you. Your file is attached.")).toBeVisible();
    await requests.were(["POST /viewer (fetch) 200"]);
    const stored = withE2eDatabase(
      (db) => db.prepare("select a.interview_id from attachments a join users u on u.id = a.user_id where u.email = ?").get(email) as { interview_id: string },
    );
    await expect(page).toHaveURL(new RegExp(`/issues/900/interviews/${stored.interview_id}$`));

    await press(frame, "Finish");
    await expect(frame.locator("#viewer-heading")).toHaveText("Check your answers");
    await requests.were(["POST /viewer (fetch) 200"]);
    await frame.getByRole("button", { name: "Confirm and finish" }).click();
    await expect(page.getByRole("heading", { name: "Congratulations" })).toBeVisible();
    // The step, then the host moves on to its own page (the success message).
    await requests.were(["POST /viewer (fetch) 200", `GET /issues/900/interviews/${stored.interview_id} 200`]);

    // Save and finish later from a page the frame shows: the step, then the home page.
    const [id] = plantInterviews(email, [{ issueId: 2, status: "Draft", daysAgo: 0 }]);
    moveInterviewTo(id!, "4-Don't know PO info");
    await page.goto(`/issues/2/interviews/${id}`);
    await requests.were([`GET /issues/2/interviews/${id} 200`, "GET /viewer 200"]);
    await press(viewer(page), "I need help finding this information");
    await viewer(page).getByRole("button", { name: "Exit and come back later." }).click();
    await expect(page.getByRole("status").filter({ hasText: "You are signed out. Your answers are saved: sign in to continue your interview." })).toBeVisible();
    await requests.were(["POST /viewer (fetch) 200", "POST /viewer (fetch) 200", "GET / 200"]);
    await expect(page.locator("header").getByRole("link", { name: "Sign In" })).toBeVisible();
  });
});

test.describe("a page with errors", () => {
  test("is shown in the interview page, under the site's header and breadcrumb, titled Error: …; without script the step is still post, redirect, get", async ({ page, javaScriptEnabled, axe }) => {
    await plantSignedIn(page, uniqueEmail("errors-in-page"));
    const requests = pageRequests(page);
    await page.goto("/issues/9/interviews");
    const frame = viewer(page);
    await press(frame, "Start");
    const id = page.url().replace(/#.*$/, "").split("/").pop()!;
    if (!javaScriptEnabled) {
      await requests.were(["GET /issues/9/interviews 200", "POST /issues/9/interviews 302", `GET /issues/9/interviews/${id} 200`]);
    }
    requests.forget();

    await press(frame, "Continue", { stays: true });
    const title = `Error: First, tell us about you. – Step 2 of 5 – ${SMALL_CLAIMS} | Legal Self-Help`;
    await expect(page).toHaveTitle(title);
    await expect(page).toHaveURL(new RegExp(`/issues/9/interviews/${id}$`));
    await expect(page.getByRole("banner")).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Breadcrumb" })).toContainText("Small claims for money or goods");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(SMALL_CLAIMS);
    await expect(frame.getByRole("alert")).toContainText("There is a problem");
    await expect(frame.getByLabel(/^Your full name/)).toHaveAttribute("aria-invalid", "true");
    if (!javaScriptEnabled) {
      // The page comes back from the interview page's own address, with its errors, focus on the summary.
      await requests.were([`POST /issues/9/interviews/${id} 400`]);
      await expect(page.locator(".viewer-inline")).toBeVisible();
      expect(await page.evaluate(() => document.activeElement?.getAttribute("aria-labelledby"))).toBe("error-summary-title");
    }
    await axe();

    await frame.getByLabel(/^Your full name/).fill("Ana Lim");
    await frame.getByLabel(/^Your postal address/).fill("1 Main Street");
    await press(frame, "Continue");
    await expect(page).toHaveTitle(`Who owes you the money? – Step 3 of 5 – ${SMALL_CLAIMS} | Legal Self-Help`);
    if (!javaScriptEnabled) await requests.were([`POST /issues/9/interviews/${id} 302`, `GET /issues/9/interviews/${id} 200`]);
  });
});
