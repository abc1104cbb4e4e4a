import { describe, expect, it } from "vitest";
import type { Answers, AnswerValue, VarType } from "~/a2j";
import { docx, docxText } from "./test-docx";
import { fillWordTemplate } from "./word.server";

function answers(vars: Record<string, [VarType, AnswerValue | AnswerValue[]]>): Answers {
  const out: Answers = {};
  for (const [name, [type, v]] of Object.entries(vars)) {
    out[name.toLowerCase()] = { name, type, repeating: Array.isArray(v), values: [null, ...(Array.isArray(v) ? v : [v])] };
  }
  return out;
}

const a = answers({
  "User name TE": ["Text", "Zoë & Co"],
  "Start DA": ["Date", "1/5/2024"],
  "Has job TF": ["TF", true],
  "Has car TF": ["TF", false],
  "Item TE": ["Text", ["Rent", "Bond"]],
  "Paid TF": ["TF", [true, false]],
  "Count NU": ["Number", 2],
});

describe("Word templates", () => {
  it("prints variables by name, whatever their case, formatted by type", () => {
    const r = fillWordTemplate(docx(["Name: {user NAME te}, since {Start DA}.", "Items: {Item TE}.", "Unknown: [{Nope TE}]"]), a);
    if (!r.ok) throw new Error(r.error);
    expect(docxText(r.bytes)).toEqual(["Name: Zoë & Co, since 01/05/2024.", "Items: Rent and Bond.", "Unknown: []"]);
  });

  it("keeps or drops sections by a TF answer", () => {
    const r = fillWordTemplate(docx(["{#Has job TF}", "Employed.", "{/Has job TF}", "{#Has car TF}", "Drives.", "{/Has car TF}", "{^Has car TF}No car.{/Has car TF}"]), a);
    if (!r.ok) throw new Error(r.error);
    expect(docxText(r.bytes)).toEqual(["Employed.", "No car."]);
  });

  it("repeats over a repeating variable or a count, with per-iteration values and conditions", () => {
    const r = fillWordTemplate(docx(["{#Item TE}", "- {Item TE} for {User name TE}{#Paid TF} (paid){/Paid TF}", "{/Item TE}", "{#Count NU}[{Item TE}]{/Count NU}"]), a);
    if (!r.ok) throw new Error(r.error);
    expect(docxText(r.bytes)).toEqual(["- Rent for Zoë & Co (paid)", "- Bond for Zoë & Co", "[Rent][Bond]"]);
  });

  it("a broken template is an error that names the problem", () => {
    const r = fillWordTemplate(docx(["{#Has job TF} never closed"]), a);
    expect(r).toMatchObject({ ok: false, error: expect.stringMatching(/Has job TF/) });
    expect(fillWordTemplate(new TextEncoder().encode("not a zip"), a)).toMatchObject({ ok: false });
  });
});
