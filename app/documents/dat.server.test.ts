import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { extractText } from "unpdf";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, type TestDatabase } from "../../tests/support/databases";
import { importSeedGuides } from "~/guides/import.server";
import { datAssemble, datFileName } from "./dat.server";

const job = JSON.stringify({
  "user name full te": { name: "User name full TE", type: "Text", repeating: false, values: [null, "Zoë Ångström"] },
  "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] },
});
const noJob = JSON.stringify({ "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, false] } });

const json = (body: unknown) => new Request("http://x/api/assemble", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const form = (body: Record<string, string>) => new Request("http://x/api/assemble", { method: "POST", body: new URLSearchParams(body) });

async function text(response: Response) {
  const { text } = await extractText(new Uint8Array(await response.arrayBuffer()), { mergePages: true });
  return (text as string).replace(/\s+/g, " ");
}

describe("DAT file names", () => {
  it("kebab-cases the guide title", () => {
    expect(datFileName("Re-Entry: Zoë's plan!", "pdf")).toBe("re-entry-zoe-s-plan.pdf");
    expect(datFileName(undefined, "pdf")).toBe("document.pdf");
    expect(datFileName("***", "zip")).toBe("document.zip");
  });
});

describe.each(dialects)("DAT-compatible assembly on %s", (dialect) => {
  let handle: TestDatabase;
  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await importSeedGuides("db/seed", { onlyMissing: false }, handle.db);
  });
  afterAll(() => handle?.drop());

  it("answers the PDF inline, named after the guide title (JSON or form body)", async () => {
    const response = await datAssemble(json({ guideId: "re-entry-navigator", answers: job, guideTitle: "Re-Entry: Zoë's plan" }), handle.db);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/pdf");
    expect(response.headers.get("content-disposition")).toBe("inline; filename=re-entry-zoe-s-plan.pdf");
    expect(await text(response)).toContain("This certifies that Zoë Ångström is currently employed");
    const fromForm = await datAssemble(form({ guideId: "re-entry-navigator", answers: job }), handle.db);
    expect(fromForm.headers.get("content-disposition")).toBe("inline; filename=document.pdf");
  });

  it("assembles one template alone with templateId, whatever its condition", async () => {
    const response = await datAssemble(json({ guideId: "re-entry-navigator", answers: noJob, templateId: 3 }), handle.db);
    expect(response.status).toBe(200);
    expect(await text(response)).toContain("Employment Verification");
  });

  it("refuses bad requests with DAT's error shape", async () => {
    const cases: [Request, number, RegExp][] = [
      [json({ answers: job }), 400, /guideId is required/],
      [json({ guideId: "re-entry-navigator" }), 400, /answers is required/],
      [json({ guideId: "re-entry-navigator", answers: "{nope" }), 400, /^answers: /],
      [json({ guideId: "re-entry-navigator", answers: job, templateId: "x" }), 400, /templateId/],
      [json([1, 2]), 400, /guideId and answers/],
      [new Request("http://x/api/assemble", { method: "POST", body: "plain" }), 400, /guideId and answers/],
      [json({ guideId: "nope", answers: job }), 404, /no guide nope/],
      [json({ guideId: "re-entry-navigator", answers: noJob }), 422, /No template applies/],
    ];
    for (const [request, status, message] of cases) {
      const response = await datAssemble(request, handle.db);
      expect(response.status).toBe(status);
      expect(await response.json()).toEqual({ ok: false, error: expect.stringMatching(message) });
    }
  });
});
