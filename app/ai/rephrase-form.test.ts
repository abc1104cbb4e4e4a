import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { translator } from "~/i18n/translator";
import { MAX_INPUT_CHARS } from "./rephrase";
import { askSchema, chooseSchema, formMessages } from "./rephrase-form";

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [name, value] of Object.entries(values)) data.set(name, value);
  return data;
};

/** The field errors of a submission that failed. */
const errors = (submission: { status?: string; error?: unknown }) =>
  (submission.status === "success" ? {} : (submission.error ?? {})) as Record<string, string[] | null | undefined>;

describe("the rephrase screen's forms", () => {
  it("asks for some text, at most 4,000 characters, trimmed", () => {
    expect(errors(parseWithZod(form({ text: "   " }), { schema: askSchema })).text).toEqual([formMessages.empty]);
    expect(errors(parseWithZod(form({}), { schema: askSchema })).text).toEqual([formMessages.empty]);
    const long = parseWithZod(form({ text: "a".repeat(MAX_INPUT_CHARS + 1) }), { schema: askSchema });
    expect(errors(long).text?.map((message) => translator("en").message(message))).toEqual([
      "Your answer is too long to rephrase: please keep it to 4,000 characters.",
    ]);
    const ok = parseWithZod(form({ text: "  My words.  " }), { schema: askSchema });
    expect(ok.status === "success" && ok.value.text).toBe("My words.");
  });

  it("needs a choice between the AI's text and the person's own", () => {
    expect(errors(parseWithZod(form({ text: "mine" }), { schema: chooseSchema })).choice).toEqual([formMessages.choose]);
    expect(errors(parseWithZod(form({ choice: "both" }), { schema: chooseSchema })).choice).toEqual([formMessages.choose]);
    const ok = parseWithZod(form({ choice: "own", text: "mine", suggestion: "theirs" }), { schema: chooseSchema });
    expect(ok.status === "success" && ok.value).toEqual({ choice: "own", text: "mine", suggestion: "theirs" });
  });
});
