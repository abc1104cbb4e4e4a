import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { plantInterviews, withE2eDatabase } from "./support";
import { plantSignedIn } from "./people";

// The costly routes (documents, POST /assemble, guide previews) are limited per person and per address in the
// database. Here a person's window is planted full, as if they had just used up their limit.
function fillWindow(email: string, feature: "documents" | "preview", hits: number) {
  withE2eDatabase((db) => {
    const user = db.prepare("select id from users where email = ?").get(email) as { id: string };
    db.prepare("insert into rate_limits (bucket, window_started_at, hits) values (?, ?, ?)").run(`${feature}:user:${user.id}`, new Date().toISOString(), hits);
  });
}

const limitMessage = /^Too many attempts\. Please wait 1[45] minutes and try again\.$/;

test.describe("limits on costly routes", () => {
  test("past the document limit, a download goes back to My interviews with the limit's message on the page, and /assemble answers 429", async ({ page, axe }) => {
    const email = uniqueEmail("limit-documents");
    await plantSignedIn(page, email);
    const [interviewId] = plantInterviews(email, [{ issueId: 3, status: "Completed", daysAgo: 0 }]);
    fillWindow(email, "documents", 30);

    await page.goto(`/account/interview/${interviewId}/download`);
    await expect(page).toHaveURL(/\/account\/interview$/);
    // An error the person must act on stays on the page (0026), not in a toast that fades.
    await expect(page.locator("main").getByRole("alert")).toHaveText(limitMessage);
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await axe();

    const assemble = await page.request.post("/assemble", { form: { guideId: "case-summary", answers: "{}" } });
    expect(assemble.status()).toBe(429);
    expect(Number(assemble.headers()["retry-after"])).toBeGreaterThan(0);
    expect(await assemble.json()).toEqual({ ok: false, error: expect.stringMatching(limitMessage) });
  });

  test("past the preview limit, a preview is a 429 page that says how long to wait", async ({ page, axe }) => {
    const email = uniqueEmail("limit-preview");
    await plantSignedIn(page, email);
    fillWindow(email, "preview", 59);
    expect((await page.goto("/preview/case-summary"))?.status()).toBe(200);

    const response = await page.goto("/preview/case-summary");
    expect(response?.status()).toBe(429);
    expect(Number(response?.headers()["retry-after"])).toBeGreaterThan(0);
    await expect(page).toHaveTitle("Too many attempts | Legal Self-Help");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Too many attempts");
    await expect(page.getByText(limitMessage)).toBeVisible();
    await axe();
  });
});
