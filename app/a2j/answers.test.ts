import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { answersFromJSON, answersToJSON, attachmentPath, varGet, varSet } from "./answers";
import { answersFromANX, answersToANX } from "./anx";
import { loadGuide } from "./guide";
import type { Answers } from "./types";

/** Our own answer fixture: repeating values with holes, dates, every type. */
const FIXTURE: Answers = {
  "client name te": { name: "Client name TE", type: "Text", repeating: false, values: [null, "Marge & <Homer> \"S\""] },
  income: { name: "Income", type: "Number", repeating: false, values: [null, 52000.75] },
  "likes tea tf": { name: "Likes tea TF", type: "TF", repeating: false, values: [null, false] },
  "user gender": { name: "User Gender", type: "MC", repeating: false, values: [null, "Female"] },
  "moved da": { name: "Moved DA", type: "Date", repeating: false, values: [null, "07/04/2019"] },
  "kid name": { name: "Kid Name", type: "Text", repeating: true, values: [null, "Ann", null, "Cy"] },
  "kid dob": { name: "Kid DOB", type: "Date", repeating: true, values: [null, "1/12/2010", null, "12/3/2015"] },
  "kid age nu": { name: "Kid age NU", type: "Number", repeating: true, values: [null, 14, 0, null, 8] },
  "kid school tf": { name: "Kid school TF", type: "TF", repeating: true, values: [null, true, null, false] },
  "lease": { name: "Lease", type: "Attachment", repeating: false, values: [null, "files/one.pdf", "files/two.pdf"] },
  "blank te": { name: "Blank TE", type: "Text", repeating: false, values: [null] },
};

describe("JSON answers", () => {
  test("round trip keeps lower-cased keys, values[0] null and holes", () => {
    const text = JSON.stringify(answersToJSON(FIXTURE));
    const back = answersFromJSON(text);
    expect(back.ok && back.value).toEqual(FIXTURE);
  });
  test("read coercions: TF strings, numeric strings, keys from names, values[0] forced null", () => {
    const r = answersFromJSON({
      "Odd KEY": { name: "Done TF", type: "TF", repeating: false, values: ["junk", "true"] },
      n: { name: "Kids", type: "Number", values: [null, "3"] },
      a: { name: "Avatar", type: "Text", values: [null, { gender: "female" }] },
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.value["done tf"]?.values).toEqual([null, true]);
    expect(r.value["kids"]?.values).toEqual([null, 3]);
    expect(r.value["avatar"]?.values).toEqual([null, '{"gender":"female"}']);
  });
  test("errors are values", () => {
    expect(answersFromJSON("{").ok).toBe(false);
    expect(answersFromJSON("[]").ok).toBe(false);
    expect(answersFromJSON({ a: 5 }).ok).toBe(false);
  });
  test("guide variables missing from the answers are added", () => {
    const g = loadGuide(readFileSync(new URL("./__fixtures__/loop/Guide.json", import.meta.url), "utf8"));
    if (!g.ok) throw new Error(g.error);
    const r = answersFromJSON({ x: { name: "Owner name TE", type: "Text", values: [null, "Pat"] } }, g.guide);
    if (!r.ok) throw new Error(r.error);
    expect(r.value["owner name te"]?.values).toEqual([null, "Pat"]);
    expect(r.value["pet name te"]).toMatchObject({ repeating: true, values: [null] });
  });
  test("Attachment: the last value is the stored file's path", () => {
    expect(attachmentPath(FIXTURE, "LEASE")).toBe("files/two.pdf");
    expect(attachmentPath(FIXTURE, "nothing")).toBe(null);
  });
  test("names are safe against prototype keys", () => {
    const a: Answers = {};
    varSet(a, "__proto__", "x");
    varSet(a, "constructor", "y");
    expect(varGet(a, "__proto__")).toBe("x");
    expect(varGet(a, "constructor")).toBe("y");
    expect(varGet({}, "toString")).toBe(null);
    expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
  });
});

describe("ANX", () => {
  test("writer: element per type, day/month swap, UNANS placeholders, blanks omitted, escaping", () => {
    const x = answersToANX(FIXTURE);
    expect(x).toMatch(/^<\?xml version="1.0" encoding="UTF-8" standalone="yes"\?>\n<AnswerSet title="">/);
    expect(x).toContain('<Answer name="Client name TE"><TextValue>Marge &amp; &lt;Homer&gt; &quot;S&quot;</TextValue></Answer>');
    expect(x).toContain('<Answer name="Income"><NumValue>52000.75</NumValue></Answer>');
    expect(x).toContain('<Answer name="Likes tea TF"><TFValue>false</TFValue></Answer>');
    expect(x).toContain('<Answer name="User Gender"><MCValue><SelValue>Female</SelValue></MCValue></Answer>');
    expect(x).toContain('<Answer name="Moved DA"><DateValue>04/07/2019</DateValue></Answer>');
    expect(x).toContain(
      '<Answer name="Kid DOB"><RptValue><DateValue>12/1/2010</DateValue><DateValue UNANS="true"></DateValue><DateValue>3/12/2015</DateValue></RptValue></Answer>',
    );
    expect(x).toContain('<NumValue>14</NumValue><NumValue>0</NumValue><NumValue UNANS="true"></NumValue><NumValue>8</NumValue>');
    expect(x).not.toContain("Blank TE");
  });
  test("round trip JSON → ANX → JSON keeps every value and position", () => {
    const back = answersFromANX(answersToANX(FIXTURE));
    if (!back.ok) throw new Error(back.error);
    const expected = structuredClone(FIXTURE);
    delete expected["blank te"]; // blank non-repeating answers are not written
    expected["lease"] = { ...expected["lease"]!, type: "Text", repeating: true }; // no guide: typed from the element
    expect(back.value).toEqual(expected);
  });
  test("reader: case-insensitive names, guide types, unknown variables created, # names skipped", () => {
    const g = loadGuide(readFileSync(new URL("./__fixtures__/loop/Guide.json", import.meta.url), "utf8"));
    if (!g.ok) throw new Error(g.error);
    const anx = `<?xml version="1.0"?>
<AnswerSet title="">
  <Answer name="OWNER NAME te"><TextValue>Pat</TextValue></Answer>
  <Answer name="pet birthday da"><RptValue><DateValue>25/12/2020</DateValue><DateValue UNANS="true"/></RptValue></Answer>
  <Answer name="Pet cost NU"><RptValue><NumValue>10.5</NumValue></RptValue></Answer>
  <Answer name="Extra TF"><TFValue>TRUE</TFValue></Answer>
  <Answer name="Mood MC"><SelValue><MCValue>calm</MCValue></SelValue></Answer>
  <Answer name="Side MC">
    <MCValue>
      <SelValue>left</SelValue>
    </MCValue>
  </Answer>
  <Answer name="Guess TF"><TextValue>true</TextValue></Answer>
  <Answer name="bad#1"><TextValue>x</TextValue></Answer>
</AnswerSet>`;
    const r = answersFromANX(anx, g.guide);
    if (!r.ok) throw new Error(r.error);
    const a = r.value;
    expect(a["owner name te"]).toMatchObject({ name: "Owner name TE", values: [null, "Pat"] });
    expect(a["pet birthday da"]).toMatchObject({ type: "Date", repeating: true, values: [null, "12/25/2020", null] });
    expect(a["pet cost nu"]?.values).toEqual([null, 10.5]);
    expect(a["extra tf"]).toMatchObject({ name: "Extra TF", type: "TF", values: [null, true] });
    expect(a["mood mc"]).toMatchObject({ type: "MC", values: [null, "calm"] });
    expect(a["side mc"]).toMatchObject({ type: "MC", values: [null, "left"] });
    expect(a["guess tf"]).toMatchObject({ type: "TF", values: [null, true] });
    expect(a["bad#1"]).toBeUndefined();
    expect(a["pet name te"]?.values).toEqual([null]); // guide variable present, unanswered
  });
  test("reader errors are values", () => {
    expect(answersFromANX("<AnswerSet>").ok).toBe(false);
    expect(answersFromANX("<Other/>").ok).toBe(false);
  });
});
