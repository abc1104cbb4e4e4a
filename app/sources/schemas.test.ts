import { describe, expect, it } from "vitest";
import { addSourceSchema, MAX_PASTED_CHARS, sourceMessages } from "./schemas";

const base = { title: "Fact sheet", url: "https://www.example.org/page", countryId: "3" };
const messages = (value: object) => addSourceSchema.safeParse(value).error?.issues.map((issue) => [issue.path.join("."), issue.message]) ?? [];

describe("the Add a source form", () => {
  it("names every missing field at once, the content too", () => {
    expect(messages({})).toEqual([
      ["title", sourceMessages.title],
      ["url", sourceMessages.url],
      ["countryId", sourceMessages.country],
      ["file", sourceMessages.content],
    ]);
  });

  it("takes only http and https links to a named host", () => {
    for (const url of ["javascript:alert(1)", "ftp://files.example.org/a", "https://localhost", "data:text/html,x", "www.example.org"]) {
      expect(messages({ ...base, url, markdown: "x" }), url).toEqual([["url", sourceMessages.urlInvalid]]);
    }
    expect(addSourceSchema.parse({ ...base, url: " http://www.example.org/a?b=c ", markdown: "x" })).toMatchObject({ url: "http://www.example.org/a?b=c", countryId: 3 });
  });

  it("takes a file or pasted text, not both, and no more text than a form field carries", () => {
    const file = new File(["%PDF-1.4"], "a.pdf", { type: "application/pdf" });
    expect(addSourceSchema.parse({ ...base, file, issueId: "6" })).toMatchObject({ issueId: 6, file });
    expect(messages({ ...base, file, markdown: "text" })).toEqual([["markdown", sourceMessages.both]]);
    expect(messages({ ...base, file: new File([], ""), markdown: "  " })).toEqual([["file", sourceMessages.content]]);
    expect(messages({ ...base, markdown: "x".repeat(MAX_PASTED_CHARS + 1) })).toEqual([["markdown", sourceMessages.pastedLong]]);
    expect(messages({ ...base, countryId: "0", markdown: "x" })).toEqual([["countryId", sourceMessages.country]]);
    expect(messages({ ...base, issueId: "x", markdown: "x" })).toEqual([["issueId", sourceMessages.issue]]);
  });
});
