import { describe, expect, it } from "vitest";
import type { Answers, AnswerValue } from "~/a2j";
import { blocksText, counterText, layoutTextTemplate, richTextBlocks } from "./layout";
import { parseTemplate, parseTemplateList, type CondOp, type TextTemplate } from "./template";
import { evalCondition, loopCount, variableText } from "./values";

function answers(vars: Record<string, { type?: string; repeating?: boolean; values: AnswerValue[] }>): Answers {
  const out: Answers = {};
  for (const [name, v] of Object.entries(vars)) {
    out[name.toLowerCase()] = { name, type: (v.type ?? "Text") as never, repeating: v.repeating ?? false, values: [null, ...v.values] };
  }
  return out;
}

const cond = (operator: CondOp, leftOperand: string, rightOperand = "", rightOperandType: "text" | "variable" = "text") => ({
  operator,
  leftOperand,
  rightOperand,
  rightOperandType,
});

function text(html: string, a: Answers, index?: number) {
  return blocksText(richTextBlocks(html, { answers: a, size: 12, index }));
}

function template(children: unknown[], state: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): TextTemplate {
  const parsed = parseTemplate({ templateId: 1, title: "T", active: "true", rootNode: { tag: "a2j-template", id: "r", state, children }, ...extra });
  if (!parsed.ok || parsed.value.kind !== "text") throw new Error("not a text template");
  return parsed.value;
}

const conditional = (state: Record<string, unknown>, then: unknown[], otherwise: unknown[] = []) => ({
  tag: "a2j-conditional",
  id: "c",
  state: { leftOperandType: "variable", rightOperandType: "text", elseClause: false, ...state },
  children: [
    { rootNode: { tag: "a2j-template", id: "a", children: then } },
    { rootNode: { tag: "a2j-template", id: "b", children: otherwise } },
    { tag: "conditional-add-element" },
    { tag: "conditional-add-element" },
  ],
});
const rich = (html: string) => ({ tag: "a2j-rich-text", id: "t", state: { userContent: html, notes: "" } });

describe("conditions", () => {
  const a = answers({
    "Yes TF": { type: "TF", values: [true] },
    "No TF": { type: "TF", values: [false] },
    "Str false TF": { type: "TF", values: ["false"] },
    "Blank TE": { values: [null] },
    "Name TE": { values: ["Ann"] },
    "Other name TE": { values: ["Ann"] },
    "Count NU": { type: "Number", values: [5] },
    "Count text TE": { values: ["5"] },
    "Kids TE": { repeating: true, values: ["Bart", "Lisa", "Maggie"] },
  });
  it("is-true: truthy and not the string false", () => {
    expect(evalCondition(cond("is-true", "Yes TF"), a)).toBe(true);
    expect(evalCondition(cond("is-true", "No TF"), a)).toBe(false);
    expect(evalCondition(cond("is-true", "Str false TF"), a)).toBe(false);
    expect(evalCondition(cond("is-true", "Blank TE"), a)).toBe(false);
    expect(evalCondition(cond("is-true", "Unknown var"), a)).toBe(false);
    expect(evalCondition(cond("is-true", "Name TE"), a)).toBe(true);
  });
  it("is-false is the opposite", () => {
    expect(evalCondition(cond("is-false", "Yes TF"), a)).toBe(false);
    expect(evalCondition(cond("is-false", "No TF"), a)).toBe(true);
    expect(evalCondition(cond("is-false", "Str false TF"), a)).toBe(true);
    expect(evalCondition(cond("is-false", "Blank TE"), a)).toBe(true);
  });
  it("is-equal / is-not-equal are strict, against text or another variable", () => {
    expect(evalCondition(cond("is-equal", "Name TE", "Ann"), a)).toBe(true);
    expect(evalCondition(cond("is-equal", "Name TE", "ann"), a)).toBe(false);
    expect(evalCondition(cond("is-equal", "Name TE", "Other name TE", "variable"), a)).toBe(true);
    // 5 is not "5" (A2J's ===)
    expect(evalCondition(cond("is-equal", "Count NU", "5"), a)).toBe(false);
    expect(evalCondition(cond("is-equal", "Count text TE", "5"), a)).toBe(true);
    expect(evalCondition(cond("is-not-equal", "Count NU", "5"), a)).toBe(true);
    expect(evalCondition(cond("is-not-equal", "Name TE", "Ann"), a)).toBe(false);
    // a repeating variable compares as its readable list
    expect(evalCondition(cond("is-equal", "Kids TE", "Bart, Lisa and Maggie"), a)).toBe(true);
  });
  it("is-greater-than / is-less-than compare as JavaScript does", () => {
    expect(evalCondition(cond("is-greater-than", "Count NU", "4"), a)).toBe(true);
    expect(evalCondition(cond("is-greater-than", "Count NU", "5"), a)).toBe(false);
    expect(evalCondition(cond("is-less-than", "Count NU", "10"), a)).toBe(true);
    // two strings compare as strings: "5" > "10"
    expect(evalCondition(cond("is-greater-than", "Count text TE", "10"), a)).toBe(true);
    expect(evalCondition(cond("is-less-than", "Name TE", "Bob"), a)).toBe(true);
    expect(evalCondition(cond("is-less-than", "Count NU", "Count text TE", "variable"), a)).toBe(false);
    expect(evalCondition(cond("is-greater-than", "Name TE", "4"), a)).toBe(true); // "Ann" > "4" as strings
    expect(evalCondition(cond("is-greater-than", "Count NU", "abc"), a)).toBe(false); // 5 > NaN
    expect(evalCondition(cond("is-less-than", "Count NU", "abc"), a)).toBe(false);
  });
});

describe("values", () => {
  const a = answers({
    "Date DA": { type: "Date", values: ["1/2/2020"] },
    "Amount NU": { type: "Number", values: [1234.5] },
    "Kids TE": { repeating: true, values: ["Bart", null, "Lisa"] },
    "Flag TF": { type: "TF", values: [true] },
    "File AT": { type: "Attachment", values: ["attachments/abc.pdf"] },
  });
  it("formats by type", () => {
    expect(variableText(a, "date da")).toBe("01/02/2020");
    expect(variableText(a, "Amount NU")).toBe("1234.5");
    expect(variableText(a, "Flag TF")).toBe("true");
    expect(variableText(a, "File AT")).toBe("abc.pdf");
    expect(variableText(a, "Kids TE")).toBe("Bart and Lisa");
    expect(variableText(a, "Kids TE", 3)).toBe("Lisa");
    expect(variableText(a, "Kids TE", 2)).toBeNull();
    expect(variableText(a, "Nope")).toBeNull();
    // a non-repeating variable inside a loop prints its one value
    expect(variableText(a, "Amount NU", 2)).toBe("1234.5");
  });
  it("counts loop iterations from the counter or the loop variable", () => {
    const b = answers({ "N NU": { type: "Number", values: [3] }, "Bad NU": { type: "Number", values: ["x"] } });
    expect(loopCount({ loopType: "counter", loopCounter: 2, loopVariable: "" }, b)).toBe(2);
    expect(loopCount({ loopType: "variable", loopCounter: 0, loopVariable: "N NU" }, b)).toBe(3);
    expect(loopCount({ loopType: "variable", loopCounter: 0, loopVariable: "Bad NU" }, b)).toBe(0);
    expect(loopCount({ loopType: "variable", loopCounter: 0, loopVariable: "missing" }, b)).toBe(0);
  });
});

describe("parser", () => {
  it("reads templates.json", () => {
    expect(parseTemplateList('{"guideId":"1","templateIds":[2,"1"]}')).toEqual({ ok: true, value: [2, 1] });
    expect(parseTemplateList("{")).toMatchObject({ ok: false });
    expect(parseTemplateList('{"templateIds":["x"]}')).toMatchObject({ ok: false });
  });
  it("normalises A2J's string booleans and drops deleted templates", () => {
    const t = parseTemplate({ templateId: 3, active: "false", hideHeaderOnFirstPage: "true", rootNode: { tag: "a2j-template", id: "x" } });
    expect(t).toMatchObject({ ok: true, value: { kind: "text", active: false, hideHeaderOnFirstPage: true, children: [] } });
    expect(parseTemplate({ active: "true", deleted: "true", rootNode: { tag: "a2j-template" } })).toMatchObject({ value: { active: false } });
    expect(parseTemplate({ rootNode: { tag: "a2j-template" } })).toMatchObject({ value: { active: true, condition: null } });
    expect(parseTemplate("nope")).toMatchObject({ ok: false });
    expect(parseTemplate({ rootNode: { tag: "other" } })).toMatchObject({ ok: false });
  });
  it("reads the template-level condition only when conditional logic is on", () => {
    const on = template([], { hasConditionalLogic: "true", operator: "is-true", leftOperand: "Have job TF", rightOperandType: "variable" });
    expect(on.condition).toEqual({ operator: "is-true", leftOperand: "Have job TF", rightOperand: "", rightOperandType: "variable" });
    const off = template([], { hasConditionalLogic: false, operator: "is-true", leftOperand: "Have job TF" });
    expect(off.condition).toBeNull();
  });
  it("reads a PDF template's boxes and options", () => {
    const t = parseTemplate({
      templateId: 2,
      rootNode: {
        tag: "a2j-pdf",
        pages: [{ domSize: { width: 765, height: 990 }, pdfSize: { width: 612, height: 792 } }],
        boxes: [{ id: "b", page: 0, area: { top: 1, left: 2, width: 3, height: 4 }, variable: "Name TE", isInverted: "true" }, { id: "no var", area: {} }],
        documentOptions: { fontSize: "10", variableOptions: { "Name TE": { overflowStyle: "overflow-to-addendum", isCheck: "false" } } },
      },
    });
    expect(t).toMatchObject({
      ok: true,
      value: { kind: "pdf", fontSize: 10, boxes: [{ variable: "Name TE", isInverted: true, variableValue: null }], variableOptions: { "name te": { overflowStyle: "overflow-to-addendum", isCheck: false } } },
    });
    if (t.ok && t.value.kind === "pdf") expect(t.value.boxes).toHaveLength(1);
  });
});

describe("rich text", () => {
  const a = answers({ "Name TE": { values: ["Zoë <b>"] }, "Kids TE": { repeating: true, values: ["Bart", "Lisa"] } });
  it("prints variables (escaped text, never markup) and collapses white space", () => {
    expect(text('<p>Hello&nbsp;<a2j-variable name="Name TE"></a2j-variable>,\n  <strong>welcome</strong></p>', a)).toBe("Hello\u00a0Zoë <b>, welcome");
  });
  it("leaves blank space for an unanswered variable", () => {
    const out = text('<p>Signed: <a2j-variable name="Missing TE"></a2j-variable>.</p>', a);
    expect(out).toMatch(/^Signed: \u00a0+\.$/);
  });
  it("keeps styles, alignment, lists and line breaks", () => {
    const blocks = richTextBlocks('<p style="text-align:center"><span style="font-size:18px"><em>Title</em></span></p><ul><li>one<ul><li>two</li></ul></li><li>three<br>four</li></ul><ol><li>first</li></ol>', { answers: a, size: 12 });
    expect(blocks[0]).toMatchObject({ kind: "paragraph", align: "center", runs: [{ text: "Title", italic: true, size: 18 }] });
    expect(blocksText(blocks)).toBe("Title\n• one\n◦ two\n• three\nfour\n1. first");
    expect(blocks.map((b) => (b.kind === "paragraph" ? b.indent : -1))).toEqual([0, 1, 2, 1, 1]);
  });
  it("indexes variables inside a loop", () => {
    expect(text('<p><a2j-variable name="Kids TE"></a2j-variable></p>', a, 2)).toBe("Lisa");
  });
  it("numbers section titles with the template's counter style", () => {
    expect([1, 4, 9, 27].map((n) => counterText(n, "upper-roman"))).toEqual(["I", "IV", "IX", "XXVII"]);
    expect([1, 26, 27].map((n) => counterText(n, "lower-alpha"))).toEqual(["a", "z", "aa"]);
    expect(counterText(3, "decimal")).toBe("3");
  });
});

describe("text template layout", () => {
  const a = answers({
    "Yes TF": { type: "TF", values: [true] },
    "No TF": { type: "TF", values: [false] },
    "N NU": { type: "Number", values: [2] },
    "Item TE": { repeating: true, values: ["Rent", "Bond"] },
    "Amount TE": { repeating: true, values: ["$10", "$20"] },
    "Name TE": { values: ["Ann"] },
  });
  const loop = (state: Record<string, unknown>) => ({
    tag: "a2j-repeat-loop",
    id: "l",
    state: {
      loopType: "variable",
      loopVariable: "N NU",
      tableColumns: [{ variable: "Item TE", column: "Item", width: 70 }, { variable: "Amount TE", column: "Amount", width: 30 }],
      listItems: [{ variable: "Item TE", item: "Item" }, { variable: "Amount TE", item: "Amount" }],
      loopRichText: '<p><a2j-variable name="Item TE"></a2j-variable> costs <a2j-variable name="Amount TE"></a2j-variable></p>',
      loopTitle: "Items",
      loopTitleTag: "h3",
      ...state,
    },
  });
  it("takes the if or the else part", () => {
    const t = template([
      conditional({ operator: "is-true", leftOperand: "Yes TF" }, [rich("<p>shown-if</p>")], [rich("<p>else-1</p>")]),
      conditional({ operator: "is-true", leftOperand: "No TF", elseClause: "true" }, [rich("<p>hidden-if</p>")], [rich("<p>shown-else</p>")]),
      conditional({ operator: "is-true", leftOperand: "No TF", elseClause: "false" }, [rich("<p>hidden</p>")], [rich("<p>no-else</p>")]),
      conditional({ operator: "is-equal", leftOperand: "Name TE", rightOperand: "Ann" }, [conditional({ operator: "is-false", leftOperand: "No TF" }, [rich("<p>nested</p>")])]),
    ]);
    expect(blocksText(layoutTextTemplate(t, a).blocks)).toBe("shown-if\nshown-else\nnested");
  });
  it("shows a loop as a table, a list or text", () => {
    const table = layoutTextTemplate(template([loop({ displayType: "table", tableStyle: "striped" })]), a).blocks;
    expect(table[0]).toMatchObject({ kind: "heading", text: "Items", level: 3 });
    expect(table[1]).toMatchObject({ kind: "table", style: "striped", columns: [{ title: "Item", width: 0.7 }, { title: "Amount", width: 0.3 }], rows: [["Rent", "$10"], ["Bond", "$20"]] });
    const list = layoutTextTemplate(template([loop({ displayType: "list", repeatEachInOneList: true, listStyleType: "decimal" })]), a).blocks;
    expect(blocksText(list)).toBe("Items\n1. Item: Rent; Amount: $10\n2. Item: Bond; Amount: $20");
    const text = layoutTextTemplate(template([loop({ displayType: "text", loopType: "counter", loopCounter: 1, loopTitle: "" })]), a).blocks;
    expect(blocksText(text)).toBe("Rent costs $10");
  });
  it("numbers section titles, breaks pages and lays out header and footer", () => {
    const t = template(
      [
        { tag: "a2j-section-title", id: "s", state: { title: "First", titleTag: "h2", underline: "true" } },
        { tag: "a2j-page-break", id: "p" },
        { tag: "a2j-section-title", id: "s2", state: { title: "Second", titleTag: "h2", underline: false } },
      ],
      { sectionCounter: "decimal", fontFamily: "times-new-roman", fontSize: "14" },
      { header: '<p>For <a2j-variable name="Name TE"></a2j-variable></p>', hideHeaderOnFirstPage: "true", footer: "<p>Page footer</p>" },
    );
    const doc = layoutTextTemplate(t, a);
    expect(doc).toMatchObject({ font: "serif", size: 14, hideHeaderOnFirstPage: true, hideFooterOnFirstPage: false });
    expect(doc.blocks).toMatchObject([{ kind: "heading", text: "1. First", underline: true }, { kind: "page-break" }, { kind: "heading", text: "2. Second", underline: false }]);
    expect(blocksText(doc.header)).toBe("For Ann");
    expect(blocksText(doc.footer)).toBe("Page footer");
  });
});

describe("dates in documents", () => {
  const singapore = { order: "DMY", style: "long" } as const;
  const a = answers({
    "Birth date DA": { type: "Date", values: ["01/13/1990"] },
    "Due DA": { type: "Date", repeating: true, values: ["3/2/2024", "12/25/2024"] },
    "N NU": { type: "Number", values: [2] },
  });
  it("prints a date the country's way everywhere a template prints a variable; A2J's MM/DD/YYYY without a country", () => {
    const t = template(
      [
        rich('<p>Born <a2j-variable name="Birth date DA"></a2j-variable>; due <a2j-variable name="Due DA"></a2j-variable>.</p>'),
        {
          tag: "a2j-repeat-loop",
          id: "l",
          state: { loopType: "variable", loopVariable: "N NU", displayType: "table", tableColumns: [{ variable: "Due DA", column: "Due", width: 100 }], loopTitle: "" },
        },
      ],
      {},
      { header: '<p><a2j-variable name="Birth date DA"></a2j-variable></p>' },
    );
    const doc = layoutTextTemplate(t, a, singapore);
    expect(blocksText(doc.blocks.slice(0, 1))).toBe("Born 13 January 1990; due 2 March 2024 and 25 December 2024.");
    expect(doc.blocks[1]).toMatchObject({ kind: "table", rows: [["2 March 2024"], ["25 December 2024"]] });
    expect(blocksText(doc.header)).toBe("13 January 1990");
    expect(blocksText(layoutTextTemplate(t, a).blocks.slice(0, 1))).toBe("Born 01/13/1990; due 03/02/2024 and 12/25/2024.");
    expect(variableText(a, "Birth date DA", undefined, { order: "DMY", style: "numeric" })).toBe("13/01/1990");
  });
  it("conditions compare the stored A2J value, whatever the country", () => {
    expect(evalCondition(cond("is-equal", "Birth date DA", "01/13/1990"), a)).toBe(true);
  });
});
