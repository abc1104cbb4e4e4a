import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { editSchemas } from "./editing";
import { itemFromUrl, itemHref } from "./items";

describe("content addresses", () => {
  it("name an item by section and key, and nothing else", () => {
    expect(itemFromUrl("pages", "home")).toMatchObject({ kind: "home", key: "home" });
    expect(itemFromUrl("pages", "privacy")).toMatchObject({ kind: "legal", key: "privacy" });
    expect(itemFromUrl("countries", "new")).toMatchObject({ kind: "country", key: null });
    expect(itemFromUrl("issues", "12")).toMatchObject({ kind: "issue", key: "12" });
    for (const [section, key] of [["pages", "secret"], ["issues", "0"], ["issues", "1.5"], ["issues", "99999999999"], ["users", "1"], ["pages", undefined]] as const) {
      expect(itemFromUrl(section, key), `${section}/${key}`).toBeNull();
    }
    expect(itemHref("legal", "about")).toBe("/admin/content/pages/about");
    expect(itemHref("country", "4")).toBe("/admin/content/countries/4");
  });
});

describe("content forms", () => {
  const form = (entries: Record<string, string>) => {
    const data = new FormData();
    for (const [name, value] of Object.entries(entries)) data.append(name, value);
    return data;
  };

  it("read an issue: no guide is empty, the box ticked is sensitive, an unknown intent only previews", () => {
    const submission = parseWithZod(form({ intent: "delete-everything", name: " Rent ", countryId: "3", content: "Text", guideId: "", modelAI: "m", sensitive: "on" }), { schema: editSchemas.issue });
    expect(submission.status).toBe("success");
    expect(submission.status === "success" && submission.value).toMatchObject({ intent: "preview", name: "Rent", countryId: 3, guideId: "", sensitive: true, rephraseVariables: "" });
  });

  it("name every empty required field", () => {
    const submission = parseWithZod(form({ intent: "publish", headline: " ", subHeadline: "", bodyCopy: "" }), { schema: editSchemas.home });
    expect(submission.status).toBe("error");
    expect(Object.keys(submission.reply().error ?? {}).sort()).toEqual(["bodyCopy", "headline", "subHeadline"]);
    const country = parseWithZod(form({ intent: "publish", name: "X", order: "first", dateOrder: "YMD", dateStyle: "long" }), { schema: editSchemas.country });
    expect(Object.keys(country.reply().error ?? {}).sort()).toEqual(["dateOrder", "order"]);
  });
});
