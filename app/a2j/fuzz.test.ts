/**
 * Property tests: random scripts, answers, guides and form posts never make the engine throw.
 */
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { answersFromJSON } from "./answers";
import { answersFromANX, answersToANX } from "./anx";
import { currentPage, saveAndExit, startInterview, submitPage, goBack, type InterviewState } from "./flow";
import { renderPage, visitedPages } from "./page-view";
import { loadGuide, loadGuideObject } from "./guide";
import { renderMacros } from "./macros";
import { runScript } from "./script";
import type { Answers, AnswerValue, AnswerVar, VarType } from "./types";
import { parseXml } from "./xml";

const TODAY = 19797;

const names = fc.constantFrom("a", "b", "[Kid name]", "[Kid name#2]", "[Kid name#Counter]", "Counter", "[x TF]", "[When DA]", "[N NU]", "kids#1");
const literals = fc.oneof(
  fc.integer({ min: -1000, max: 100000 }).map(String),
  fc.constantFrom("TRUE", "FALSE", "NULL", "TODAY", "$1,250.50", "0.5", '"text"', '""', '"3/4/2020"', '"http://x.org"'),
);
const fnNames = fc.constantFrom("AGE", "DATE", "TRUNC", "TRUNC2", "ROUND", "ROUND2", "DOLLAR", "DOLLARROUND", "NUMBER", "STRING", "HASANSWERED", "SUM", "ORDINAL", "CONTAINS", "HISHER", "HIMHER", "HESHE", "NOPE");
const binOps = fc.constantFrom("=", "is", "<>", "<", ">", "<=", ">=", "+", "-", "*", "/", "AND", "OR", "and", "or");

const { expr } = fc.letrec<{ expr: string }>((tie) => ({
  expr: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    names,
    literals,
    fc.tuple(tie("expr"), binOps, tie("expr")).map(([l, o, r]) => `${l} ${o} ${r}`),
    tie("expr").map((e) => `NOT ${e}`),
    tie("expr").map((e) => `(${e})`),
    tie("expr").map((e) => `-${e}`),
    fc.tuple(fnNames, fc.array(tie("expr"), { maxLength: 2 })).map(([f, args]) => `${f}(${args.join(", ")})`),
  ),
}));

const statement: fc.Arbitrary<string> = fc.letrec<{ stmt: string }>((tie) => ({
  stmt: fc.oneof(
    { depthSize: "small" },
    fc.tuple(names, fc.constantFrom("TO", "="), expr).map(([n, s, e]) => `SET ${n} ${s} ${e}`),
    fc.constantFrom('GOTO "P1"', 'GOTO "P2"', "// comment", "TRACE 1", "", "deltavars"),
    fc.tuple(expr, fc.array(tie("stmt"), { maxLength: 3 }), fc.array(tie("stmt"), { maxLength: 2 }), fc.boolean()).map(
      ([c, a, b, hasElse]) => [`IF ${c}`, ...a, ...(hasElse ? ["ELSE", ...b] : []), "END IF"].join("<BR/>"),
    ),
  ),
})).stmt;

const script = fc.oneof(
  fc.array(statement, { maxLength: 8 }).map((s) => s.join("<BR/>")),
  // Grammar-shaped scripts with random damage.
  fc.tuple(fc.array(statement, { maxLength: 5 }), fc.string()).map(([s, junk]) => s.join("<BR/>") + junk),
  fc.string({ maxLength: 200 }),
  fc.string({ unit: "binary", maxLength: 100 }),
);

const varTypes = fc.constantFrom<VarType>("Text", "TF", "MC", "Number", "Date", "Other", "Unknown", "Attachment");
const answerValue: fc.Arbitrary<AnswerValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e9, max: 1e9 }),
  fc.integer(),
  fc.string({ maxLength: 20 }),
  fc.constantFrom("1/2/2003", "12/31/1999", "true", "false", "1,234", ""),
);

const answersArb: fc.Arbitrary<Answers> = fc
  .array(
    fc.tuple(
      fc.constantFrom("a", "b", "Kid name", "Counter", "x TF", "When DA", "N NU", "kids", "Other thing"),
      varTypes,
      fc.boolean(),
      fc.array(answerValue, { maxLength: 5 }),
    ),
    { maxLength: 8 },
  )
  .map((list) => {
    const out: Answers = {};
    for (const [name, type, repeating, values] of list) out[name.toLowerCase()] = { name, type, repeating, values: [null, ...values] };
    return out;
  });

describe("the engine never throws", { timeout: 60_000 }, () => {
  test("runScript on random scripts and answers", () => {
    fc.assert(
      fc.property(script, answersArb, (code, answers) => {
        const r = runScript(code, { answers, today: TODAY });
        // Errors caught by the safety nets would be bugs.
        for (const e of r.errors) expect(e.message).not.toMatch(/runtime error:|internal parser error/);
        expect(r.goto === null || typeof r.goto === "string").toBe(true);
        // Answers stay in A2J's shape.
        for (const v of Object.values(answers)) expect(v.values[0]).toBe(null);
      }),
      { numRuns: 1500 },
    );
  });

  test("renderMacros on random text", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(expr, fc.string({ maxLength: 30 }))), answersArb, (parts, answers) => {
        const html = renderMacros(parts.join("%%"), answers, TODAY);
        expect(html).not.toMatch(/runtime error:|internal parser error/);
      }),
      { numRuns: 500 },
    );
  });

  test("parseXml, loadGuide, answersFromANX and answersFromJSON on random input", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.jsonValue(), (s, j) => {
        parseXml(s);
        parseXml(`<GUIDE>${s}</GUIDE>`);
        loadGuide(s);
        loadGuide(`<GUIDE><INFO><FIRSTPAGE>A</FIRSTPAGE></INFO><PAGES><PAGE NAME="A">${s}</PAGE></PAGES></GUIDE>`);
        loadGuideObject(j);
        loadGuideObject({ firstPage: "A", pages: { A: j } });
        answersFromANX(s);
        answersFromANX(`<AnswerSet><Answer name="x">${s}</Answer></AnswerSet>`);
        answersFromJSON(j);
        answersFromJSON(s);
      }),
      { numRuns: 1000 },
    );
  });

  test("random walks through the Re-Entry Navigator with random form values", () => {
    const g = loadGuide(readFileSync(new URL("./__fixtures__/re-entry-navigator/Guide.json", import.meta.url), "utf8"));
    if (!g.ok) throw new Error(g.error);
    const guide = g.guide;
    const formValue = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom("true", "on", "Weekly", "text", "1/2/2020", "5", "Male", ""));
    const step = fc.tuple(fc.nat(3), fc.dictionary(fc.constantFrom("client first name te", "client last name te", "po name te", "po location te", "phone te", "email te", "date next visit da", "opt in choice mc", "need employment tf", "drug and testing specifics mc", "company name te", "job start date da"), formValue), fc.boolean());
    fc.assert(
      fc.property(fc.array(step, { maxLength: 40 }), (steps) => {
        const start = startInterview(guide, TODAY);
        if (!start.ok) throw new Error("start failed");
        let s: InterviewState = start.state;
        for (const [button, values, back] of steps) {
          const r = back ? goBack(guide, s, TODAY) : submitPage(guide, s, { pageName: currentPage(s) ?? "", buttonIndex: button, values }, TODAY);
          if (r.ok) {
            s = r.state;
            const view = renderPage(guide, s, TODAY, r.outcome.kind === "invalid" ? { submitted: values, errors: r.outcome.errors } : {});
            expect(view).not.toBeNull();
          } else {
            expect(r.error.kind).not.toBe("internal");
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe("random guides never make the flow throw", { timeout: 60_000 }, () => {
  test("random scripts in codeBefore/codeAfter, random buttons and form values", () => {
    const targets = fc.constantFrom("P1", "P2", "P3", "", "SUCCESS", "EXIT", "FAIL", "BACK", "RESUME", "MESSAGE", "ASSEMBLE", "Nowhere");
    const button = fc.record({
      next: targets,
      name: fc.constantFrom("", "a", "[x TF]", "Counter"),
      value: fc.constantFrom("", "true", "1", "x"),
      repeatVar: fc.constantFrom("", "Counter"),
      repeatVarSet: fc.constantFrom("", "=1", "+=1", "junk"),
    });
    const fieldArb = fc.record({
      type: fc.constantFrom("text", "number", "numberpick", "datemdy", "radio", "checkbox", "checkboxNOTA", "textpick", "gender", "numberdollar"),
      name: fc.constantFrom("a", "b", "Kid name", "x TF", "When DA", ""),
      required: fc.boolean(),
      min: fc.constantFrom("", "0", "TODAY", "x"),
      max: fc.constantFrom("", "10", "TODAY"),
      value: fc.constantFrom("", "yes", "TODAY"),
      listData: fc.constantFrom("", "<option>A</option><option value='b'>B</option>"),
    });
    const pageArb = (name: string) =>
      fc.record({
        name: fc.constant(name),
        repeatVar: fc.constantFrom("", "Counter"),
        text: fc.oneof(fc.constant("%%[a]%% <a href=\"POPUP://P2\">p</a>"), expr.map((e) => `%%${e}%%`)),
        codeBefore: script,
        codeAfter: script,
        fields: fc.array(fieldArb, { maxLength: 4 }),
        buttons: fc.array(button, { minLength: 1, maxLength: 3 }),
      });
    const guideArb = fc.tuple(pageArb("P1"), pageArb("P2"), pageArb("P3")).map(([p1, p2, p3]) => ({
      firstPage: "P1",
      exitPage: "P3",
      pages: { P1: p1, P2: p2, P3: p3 },
      vars: { counter: { name: "Counter", type: "Number" }, "kid name": { name: "Kid name", type: "Text", repeating: true } },
    }));
    const values = fc.dictionary(fc.constantFrom("a", "b", "kid name", "x tf", "when da", "field-1"), fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom("on", "5", "1/2/2020", "A", "b", "Male")));
    fc.assert(
      fc.property(guideArb, fc.array(fc.tuple(fc.nat(3), values, fc.nat(4)), { maxLength: 12 }), (data, steps) => {
        const g = loadGuideObject(data);
        if (!g.ok) return;
        let r = startInterview(g.guide, TODAY);
        for (const [b, v, action] of steps) {
          if (!r.ok) r = startInterview(g.guide, TODAY);
          if (!r.ok) return;
          const s = r.state;
          renderPage(g.guide, s, TODAY);
          visitedPages(g.guide, s, TODAY);
          if (action === 0) r = goBack(g.guide, s, TODAY);
          else if (action === 1) r = saveAndExit(g.guide, s, TODAY);
          else r = submitPage(g.guide, s, { pageName: currentPage(s) ?? "", buttonIndex: b, values: v }, TODAY, { inPlace: action === 2 });
          // "internal" would mean an exception was caught by the safety net: a bug.
          if (!r.ok) expect(r.error.kind).not.toBe("internal");
          else {
            JSON.stringify(r.state);
            expect(renderPage(g.guide, r.state, TODAY)).not.toBeNull();
          }
        }
      }),
      { numRuns: 400 },
    );
  });
});

describe("ANX round trip property", { timeout: 60_000 }, () => {
  const dateStr = fc
    .tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 }), fc.integer({ min: 1900, max: 2100 }))
    .map(([m, d, y]) => `${m}/${d}/${y}`);
  const typed = fc.oneof(
    fc.tuple(fc.constant<VarType>("Text"), fc.string({ minLength: 1, maxLength: 10 }).filter((s) => s.trim() === s && s !== "")),
    // -0 has no ANX spelling ("0"), so it is left out.
    fc.tuple(fc.constant<VarType>("Number"), fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((x) => (x === 0 ? 0 : x))),
    fc.tuple(fc.constant<VarType>("TF"), fc.boolean()),
    fc.tuple(fc.constant<VarType>("MC"), fc.constantFrom("Yes", "No", "a & b")),
    fc.tuple(fc.constant<VarType>("Date"), dateStr),
  );
  test("answers → ANX → answers keeps every value at its index", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(typed, fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }), fc.boolean()), { minLength: 1, maxLength: 6 }),
        (specs) => {
          const answers: Answers = {};
          specs.forEach(([[type, sample], holes, repeating], i) => {
            const values: AnswerValue[] = [null];
            holes.forEach((hole) => values.push(hole ? null : (sample as AnswerValue)));
            if (!repeating) values.length = 2;
            while (values.length > 1 && values[values.length - 1] === null) values.pop();
            if (values.length === 1) return;
            const name = `Var ${i} ${type}`;
            const rec: AnswerVar = { name, type, repeating: repeating || values.length > 2, values };
            answers[name.toLowerCase()] = rec;
          });
          const back = answersFromANX(answersToANX(answers));
          expect(back.ok).toBe(true);
          if (back.ok) expect(back.value).toEqual(answers);
        },
      ),
      { numRuns: 500 },
    );
  });
});
