import { describe, expect, it } from "vitest";
import type { Answers } from "~/a2j";
import { mergeVariables } from "./variables";

const answers: Answers = {
  "statement te": { name: "Statement TE", type: "Text", repeating: false, values: [null, "old text"] },
  "agree tf": { name: "Agree TF", type: "TF", repeating: false, values: [null, false] },
  "choice mc": { name: "Choice MC", type: "MC", repeating: false, values: [null, "a"] },
};

describe("mergeVariables (POST variables rules)", () => {
  it("stores each value as [null, value], with TF strings as booleans and MC booleans as strings", () => {
    const merged = mergeVariables(answers, { "Statement TE": "new text", "AGREE TF": "true", "choice mc": true });
    expect(merged["statement te"]).toEqual({ name: "Statement TE", type: "Text", repeating: false, values: [null, "new text"] });
    expect(merged["agree tf"]?.values).toEqual([null, true]);
    expect(merged["choice mc"]?.values).toEqual([null, "true"]);
    expect(mergeVariables(answers, { "agree tf": "False" })["agree tf"]?.values).toEqual([null, false]);
  });

  it("creates unknown variables, leaves the others and the input alone", () => {
    const merged = mergeVariables(answers, { "New thing": "x" });
    expect(merged["new thing"]).toEqual({ name: "New thing", type: "Text", repeating: false, values: [null, "x"] });
    expect(merged["statement te"]?.values).toEqual([null, "old text"]);
    expect(answers["new thing"]).toBeUndefined();
  });

  it("with a loop index writes only that value and keeps the variable's others", () => {
    const looped: Answers = { "event te": { name: "Event TE", type: "Text", repeating: true, values: [null, "one", "two", "three"] } };
    expect(mergeVariables(looped, { "Event TE": "TWO" }, undefined, 2)["event te"]?.values).toEqual([null, "one", "TWO", "three"]);
    expect(mergeVariables(looped, { "event te": "five" }, undefined, 5)["event te"]?.values).toEqual([null, "one", "two", "three", null, "five"]);
    expect(mergeVariables({}, { "New TE": "x" }, undefined, 2)["new te"]).toEqual({ name: "New TE", type: "Text", repeating: true, values: [null, null, "x"] });
    expect(looped["event te"]?.values).toEqual([null, "one", "two", "three"]);
  });

  it("ignores names that could reach the object prototype", () => {
    const merged = mergeVariables(answers, { __proto__: "x", constructor: "y" } as Record<string, unknown>);
    expect(Object.keys(merged).sort()).toEqual(Object.keys(answers).sort());
  });
});
