import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { stepForm } from "../../tests/support/viewer-people";
import { loadSession, startSession } from "~/auth/session.server";
import { importGuide, readGuideFolder } from "~/guides/import.server";
import { loadInterview } from "~/interviews/interviews.server";
import { renderViewerDocument, renderViewerFragment } from "./viewer-document";
import { hostView, pressHostForm, pressViewerButton, showViewer, type ViewerReply, type ViewerRequest } from "./viewer-request.server";
import { viewerUrl } from "./viewer.server";

// A step the frame's script sends with fetch is answered with the next page itself (one round trip), the page
// the redirect's GET would show; the interview page's own copy of the viewer posts to the interview page, which
// shows a page with errors in place (docs/decisions/0036-one-round-trip-per-step.md).
describe.each(dialects)("the viewer's replies on %s", (dialect) => {
  let handle: TestDatabase;
  const user = { id: randomUUID(), firstName: "A", lastName: "B", email: "trip@example.org", administrator: false, helper: false };
  const ISSUE = 901;
  let request: (url: string, options?: Partial<ViewerRequest>) => Promise<ViewerRequest>;

  const form = (text: string) => {
    const data = new FormData();
    for (const [name, value] of new URLSearchParams(text)) data.append(name, value);
    return data;
  };
  const page = (reply: ViewerReply) => {
    if (!("view" in reply) || !("page" in reply.view)) throw new Error(`not a page: ${JSON.stringify(reply)}`);
    return reply.view;
  };

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await insertTestUser(handle.db, user.id, user.email);
    await importGuide("step-test", await readGuideFolder("bench/fixtures/step-guide"), handle.db);
    await handle.db
      .insertInto("issues")
      .values({ id: ISSUE, category_id: 1, name: "Steps", content: "", guide_id: "step-test", guide_path: "step-test/Guide.json", model_ai: "gpt-3.5-turbo", rephrase_content: "" })
      .execute();
    const cookie = (await startSession({ userId: user.id }, null, handle.db)).split(";")[0]!;
    request = async (url, options = {}) => {
      const { session } = await loadSession(cookie, handle.db);
      return { url: new URL(url, "http://viewer"), session, inFrame: true, ...options };
    };
  });
  afterAll(() => handle?.drop());

  it("answers a fetched step with the next page, as the GET after the redirect shows it, the interview saved", async () => {
    const start = viewerUrl({ id: ISSUE, guideId: "step-test" }, null, user.id);
    const fetched = await pressViewerButton(await request(start, { fetched: true }), form(stepForm("A", "12")), handle.db);
    expect(fetched.status).toBe(200);
    const next = page(fetched);
    expect(next.page.name).toBe("B");
    expect(next.saved).toBe(true);
    const interviewId = next.interviewId!;
    expect(interviewId).toMatch(/^[0-9a-f-]{36}$/);
    // Its form posts to the next page's address, which names the interview the step created.
    expect(next.action).toBe(`${viewerUrl({ id: ISSUE, guideId: "step-test" }, interviewId, user.id)}&saved=1`);
    expect((await loadInterview(user.id, interviewId, handle.db))!.state.history.at(-1)?.interviewPage).toBe("B");
    expect(await showViewer(await request(next.action), handle.db)).toEqual(fetched);

    // The same step posted by the frame's form itself (no script) still redirects to that page.
    const posted = await pressViewerButton(await request(next.action), form(stepForm("B", "9")), handle.db);
    expect(posted).toEqual({ status: 302, location: next.action });
    // Back, fetched: the previous page with its answers.
    const back = page(await pressViewerButton(await request(next.action, { fetched: true }), form("_page=A&_intent=back"), handle.db));
    expect(back.page.name).toBe("B");
    expect(back.page.fields.find((f) => f.inputName === "story te")?.value).toBe("Save 9");
  });

  it("answers invalid answers with 400 and the page with its errors, fetched or not", async () => {
    const start = viewerUrl({ id: ISSUE, guideId: "step-test" }, null, user.id);
    for (const fetched of [true, false]) {
      const reply = await pressViewerButton(await request(start, { fetched }), form("_page=A&_button=0&name+te=&amount+nu=12"), handle.db);
      expect(reply.status).toBe(400);
      expect(page(reply).documentTitle).toMatch(/^Error: /);
      expect(page(reply).page.errors.map((e) => e.inputName)).toEqual(["name te"]);
      expect(page(reply).action).toBe(start);
    }
  });

  it("the interview page's copy posts to the interview page: a step redirects there, errors come back to be shown there", async () => {
    const session = (await request("/")).session!;
    const shown = (await hostView(user, ISSUE, null, null, handle.db))!;
    expect(shown.view).toMatchObject({ action: `/issues/${ISSUE}/interviews`, saved: false });
    expect(shown.title).toBe(page({ status: 200, view: shown.view }).documentTitle);

    const invalid = await pressHostForm(session, ISSUE, null, form("_page=A&_button=0&name+te=Ana&amount+nu=lots"), null, handle.db);
    expect(invalid.status).toBe(400);
    expect(page(invalid)).toMatchObject({ action: `/issues/${ISSUE}/interviews`, documentTitle: expect.stringMatching(/^Error: /) });
    expect(page(invalid).page.fields.find((f) => f.inputName === "name te")?.value).toBe("Ana");

    const saved = await pressHostForm(session, ISSUE, null, form(stepForm("A", "5")), null, handle.db);
    expect(saved).toEqual({ status: 302, location: expect.stringMatching(new RegExp(`^/issues/${ISSUE}/interviews/[0-9a-f-]{36}#viewer-heading$`)) });
    const interviewId = "location" in saved ? saved.location.split("/").pop()!.split("#")[0]! : "";
    const resumed = (await hostView(user, ISSUE, interviewId, null, handle.db))!;
    expect(resumed.view).toMatchObject({ action: `/issues/${ISSUE}/interviews/${interviewId}`, interviewId });
    // A form from an older page (a second click) shows the interview where it is.
    expect(await pressHostForm(session, ISSUE, interviewId, form(stepForm("A", "5")), null, handle.db)).toEqual({ status: 302, location: `/issues/${ISSUE}/interviews/${interviewId}#viewer-heading` });
  });

  it("renders a fetched page as the document's title and what its main holds, nothing else", async () => {
    const reply = await showViewer(await request(viewerUrl({ id: ISSUE, guideId: "step-test" }, null, user.id)), handle.db);
    if (!("view" in reply)) throw new Error("no page");
    const fragment = renderViewerFragment(reply.view);
    const document = renderViewerDocument(reply.view, "nonce");
    const title = /<title>[^<]*<\/title>/.exec(document)![0];
    const main = /<main[^>]*>([\s\S]*)<\/main>/.exec(document)![1]!;
    expect(fragment).toBe(title + main);
    expect(fragment).not.toMatch(/<script|<html|<link/);
  });
});
