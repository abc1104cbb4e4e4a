import { describe, expect, test } from "vitest";
import { varGet, varSet } from "./answers";
import { ymdToDays } from "./dates";
import { lex } from "./lexer";
import { parseExpression, parseScript } from "./parser";
import { evalExpression, runScript } from "./script";
import type { Answers } from "./types";

const TODAY = ymdToDays(2024, 3, 15) as number; // 03/15/2024

function answersWith(vars: Record<string, { type: string; repeating?: boolean; values: unknown[] }>): Answers {
  const a: Answers = {};
  for (const [name, v] of Object.entries(vars)) {
    a[name.toLowerCase()] = {
      name,
      type: v.type as Answers[string]["type"],
      repeating: v.repeating ?? false,
      values: [null, ...(v.values as (string | number | boolean | null)[])],
    };
  }
  return a;
}

function run(code: string, answers: Answers = {}) {
  const r = runScript(code, { answers, today: TODAY });
  return { ...r, answers };
}

function ev(code: string, answers: Answers = {}) {
  const r = evalExpression(code, { answers, today: TODAY });
  if (!r.ok) throw new Error(`parse error: ${r.error.message}`);
  return r.value;
}

describe("lexer", () => {
  test("splits lines on <BR/>, <BR /> and newlines, unescapes &lt; &gt;", () => {
    const r = lex("SET a TO 1<BR/>IF a &lt; 2<BR />END IF");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const kinds = r.tokens.map((t) => t.kind);
    expect(kinds.filter((k) => k === "newline")).toHaveLength(2);
    expect(r.tokens.find((t) => t.kind === "op" && t.text === "<")).toBeTruthy();
    expect(r.tokens.at(-1)?.line).toBe(3);
  });
  test("numbers with commas and $", () => {
    const r = lex("$25,000 1,234.5 25,00");
    if (!r.ok) throw new Error("lex failed");
    const nums = r.tokens.filter((t) => t.kind === "number").map((t) => t.num);
    expect(nums).toEqual([25000, 1234.5, 25, 0]);
  });
  test("bracketed names with spaces and #index; bare names with #index", () => {
    const r = lex("[Child name TE#ChildCount] kids#2 [a b#3]");
    if (!r.ok) throw new Error("lex failed");
    const vars = r.tokens.filter((t) => t.kind === "var" || t.kind === "ident").map((t) => [t.text, t.index]);
    expect(vars).toEqual([
      ["Child name TE", "ChildCount"],
      ["kids", "2"],
      ["a b", "3"],
    ]);
  });
  test("// comments, but not the // of ://", () => {
    const r = lex('SET a TO 1 // a comment "x"<BR/>SET u TO "http://example.org"');
    if (!r.ok) throw new Error("lex failed");
    expect(r.tokens.filter((t) => t.kind === "string").map((t) => t.text)).toEqual(["http://example.org"]);
  });
  test("strings spanning lines keep the line break and line numbers continue", () => {
    const r = lex('SET a TO "one<BR/>two"<BR/>SET b TO 2');
    if (!r.ok) throw new Error("lex failed");
    expect(r.tokens.find((t) => t.kind === "string")?.text).toBe("one\ntwo");
    expect(r.tokens.find((t) => t.text === "b")?.line).toBe(3);
  });
  test("errors: unterminated string, missing ], stray character", () => {
    expect(lex('SET a TO "oops').ok).toBe(false);
    expect(lex("SET [a TO 1").ok).toBe(false);
    const r = lex("SET a TO 1<BR/>SET b TO @");
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.line).toBe(2);
  });
});

describe("parser errors are reported with their line", () => {
  const cases: [string, number, RegExp][] = [
    ["IF a = 1<BR/>SET b TO 2", 1, /END IF/],
    ["SET a TO 1<BR/>END IF", 2, /without a matching IF/],
    ["SET a 1", 1, /TO or =/],
    ["GOTO page", 1, /quoted page name/],
    ["FROB a", 1, /unknown statement/],
    ["SET a TO (1 + 2", 1, /"\)"/],
    ["SET a TO 1<BR/><BR/>SET b TO 1 +", 3, /expected a value/],
    ["IF a<BR/>ELSE<BR/>ELSE<BR/>END IF", 3, /second ELSE/],
    ["WRITE a", 1, /WRITE/],
    ["SET a TO 1 2", 1, /unexpected/],
  ];
  for (const [code, line, msg] of cases) {
    test(code, () => {
      const r = parseScript(code);
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.line).toBe(line);
      expect(r.error.message).toMatch(msg);
    });
  }
  test("a block that does not compile is skipped whole and reported", () => {
    const r = run("SET a TO 1<BR/>SET b TO 2<BR/>IF a = 1");
    expect(r.errors).toEqual([{ line: 3, message: "IF without END IF" }]);
    expect(varGet(r.answers, "a")).toBe(null);
  });
  test("parseExpression rejects trailing text", () => {
    expect(parseExpression("1 + 2").ok).toBe(true);
    expect(parseExpression("1 2").ok).toBe(false);
  });
});

describe("statements", () => {
  test("SET … TO and SET … =, with bracketed and bare names, case-insensitive keywords", () => {
    const r = run('set [Client name TE] to "Ann"<BR/>Set kids = 3<BR/>SET Total TO kids * 2');
    expect(r.errors).toEqual([]);
    expect(varGet(r.answers, "client NAME te")).toBe("Ann");
    expect(varGet(r.answers, "KIDS")).toBe(3);
    expect(varGet(r.answers, "total")).toBe(6);
  });
  test("setting an unknown variable creates a Text variable (repeating if indexed)", () => {
    const r = run('SET [New var] TO "x"<BR/>SET [Kid#2] TO "b"<BR/>SET [Pet#1] TO "cat"<BR/>SET [Pet#2] TO "dog"<BR/>SET pets TO [Pet]');
    expect(r.answers["new var"]).toMatchObject({ name: "New var", type: "Text", repeating: false, values: [null, "x"] });
    expect(r.answers["kid"]).toMatchObject({ repeating: true, values: [null, null, "b"] });
    expect(varGet(r.answers, "pets")).toBe("cat and dog");
  });
  test("#index with a number or a counting variable, in SET targets and reads", () => {
    const a = answersWith({ ChildCount: { type: "Number", values: [2] }, "Child name": { type: "Text", repeating: true, values: ["Bart"] } });
    const r = run('SET [Child name#ChildCount] TO "Lisa"<BR/>SET first TO [child name#1]<BR/>SET second TO [Child Name#childcount]', a);
    expect(r.errors).toEqual([]);
    expect(a["child name"]?.values).toEqual([null, "Bart", "Lisa"]);
    expect(varGet(a, "first")).toBe("Bart");
    expect(varGet(a, "second")).toBe("Lisa");
  });
  test("GOTO stops the script at once", () => {
    const r = run('SET a TO 1<BR/>GOTO "Next page"<BR/>SET a TO 2');
    expect(r.goto).toBe("Next page");
    expect(varGet(r.answers, "a")).toBe(1);
  });
  test("nested IF / ELSE IF / ELSE / END IF", () => {
    const code = [
      "IF x > 10",
      '  SET r TO "big"',
      "ELSE IF x > 5",
      "  IF x = 7",
      '    SET r TO "seven"',
      "  ELSE",
      '    SET r TO "medium"',
      "  END IF",
      "ELSE",
      '  SET r TO "small"',
      "end if",
    ].join("<BR/>");
    const out = (x: number) => {
      const a: Answers = {};
      varSet(a, "x", x);
      const r = run(code, a);
      expect(r.errors).toEqual([]);
      return varGet(a, "r");
    };
    expect(out(11)).toBe("big");
    expect(out(7)).toBe("seven");
    expect(out(6)).toBe("medium");
    expect(out(1)).toBe("small");
  });
  test("IF NOT (…) and comments", () => {
    const r = run('// leading comment<BR/>IF NOT (1 = 2) // trailing<BR/>SET ok TO TRUE<BR/>END IF');
    expect(r.errors).toEqual([]);
    expect(varGet(r.answers, "ok")).toBe(true);
  });
  test("TRACE collects values; DELTAVARS is a no-op", () => {
    const r = run('TRACE "x=" + 1<BR/>deltavars<BR/>TRACE 2*3');
    expect(r.errors).toEqual([]);
    expect(r.traces).toEqual(["x=1", "6"]);
  });
  test("a string may span lines", () => {
    const r = run('SET a TO "line one<BR/>line two"<BR/>SET b TO 1');
    expect(r.errors).toEqual([]);
    expect(varGet(r.answers, "a")).toBe("line one\nline two");
    expect(varGet(r.answers, "b")).toBe(1);
  });
  test("%% markers inside code are ignored (A2J 4 style), but not inside strings", () => {
    expect(varGet(run('SET p TO "100%% sure"').answers, "p")).toBe("100%% sure");
    const r = run("SET d TO %%DATE(TODAY)%%");
    expect(varGet(r.answers, "d")).toBe(19797); // Text holding a date string reads back as days
    expect(r.answers["d"]?.values[1]).toBe("03/15/2024");
  });
  test("empty and whitespace-only scripts do nothing", () => {
    expect(run("").errors).toEqual([]);
    expect(run("<BR/><BR/>  ").errors).toEqual([]);
  });
  test("a bad index is a runtime error that stops the script", () => {
    const r = run("SET a TO 1<BR/>SET [b#0] TO 2<BR/>SET c TO 3");
    expect(r.errors[0]?.line).toBe(2);
    expect(varGet(r.answers, "a")).toBe(1);
    expect(varGet(r.answers, "c")).toBe(null);
  });
});

describe("operators (A2J's loose semantics)", () => {
  test("equality: =, is, <> and loose comparison", () => {
    expect(ev('"5" = 5')).toBe(true);
    expect(ev("5 is 5")).toBe(true);
    expect(ev("1 <> 2")).toBe(true);
    expect(ev('"a" <> "a"')).toBe(false);
    expect(ev("TRUE = 1")).toBe(true);
    expect(ev('TRUE = "true"')).toBe(false);
    expect(ev("NULL = 0")).toBe(false);
    expect(ev('"" = 0')).toBe(true);
  });
  test("relational operators on numbers and strings", () => {
    expect(ev("2 < 10")).toBe(true);
    expect(ev('"2" < "10"')).toBe(false); // string comparison
    expect(ev('"2" < 10')).toBe(true);
    expect(ev("3 <= 3")).toBe(true);
    expect(ev("3 >= 4")).toBe(false);
    expect(ev("4 > 3")).toBe(true);
    expect(ev('"abc" < 1')).toBe(false); // NaN
  });
  test("arithmetic and concatenation", () => {
    expect(ev("1 + 2 * 3")).toBe(7);
    expect(ev("(1 + 2) * 3")).toBe(9);
    expect(ev("10 / 4")).toBe(2.5);
    expect(ev("10 - 4 - 3")).toBe(3);
    expect(ev('"a" + 1')).toBe("a1");
    expect(ev('1 + "2"')).toBe("12");
    expect(ev("-3 + 1")).toBe(-2);
    expect(ev('"6" * "7"')).toBe(42);
  });
  test("AND, OR, NOT in any case, with JS precedence", () => {
    expect(ev("TRUE and FALSE")).toBe(false);
    expect(ev("FALSE Or TRUE")).toBe(true);
    expect(ev("not FALSE")).toBe(true);
    expect(ev("1 = 1 AND 2 = 2 OR FALSE")).toBe(true);
    expect(ev("FALSE AND TRUE OR TRUE")).toBe(true);
    expect(ev("NOT 1 = 0")).toBe(true); // (!1) == 0
  });
  test("literals: TRUE, FALSE, NULL, TODAY, $ and commas", () => {
    expect(ev("TRUE")).toBe(true);
    expect(ev("false")).toBe(false);
    expect(ev("NULL")).toBe(null);
    expect(ev("TODAY")).toBe(TODAY);
    expect(ev("TODAY - 30")).toBe(TODAY - 30);
    expect(ev("$25,000 + 1")).toBe(25001);
  });
  test("deprecated #m/d/y# literal gives milliseconds", () => {
    expect(ev("#12/25/2012#")).toBe(Date.UTC(2012, 11, 25));
  });
});

describe("reading variables by type", () => {
  const a = answersWith({
    "DOB DA": { type: "Date", values: ["01/02/2000"] },
    "Blank DA": { type: "Date", values: [] },
    "Income NU": { type: "Number", values: ["1,234"] },
    "Blank NU": { type: "Number", values: [""] },
    "Happy TF": { type: "TF", values: ["true"] },
    "Name TE": { type: "Text", values: ["Ann"] },
    "Date TE": { type: "Text", values: ["1/2/2000"] },
    "Version TE": { type: "Text", values: ["1.2.20"] },
    "Kids": { type: "Text", repeating: true, values: ["Bart", "Lisa", null, "Maggie"] },
    "Gift NU": { type: "Number", repeating: true, values: [100, 200, 300] },
  });
  test("Date → days since 1970-01-01; blank stays blank", () => {
    expect(ev("[DOB DA]", a)).toBe(ymdToDays(2000, 1, 2));
    expect(ev("[DOB DA] + 30", a)).toBe((ymdToDays(2000, 1, 2) as number) + 30);
    expect(ev("[Blank DA]", a)).toBe(null);
  });
  test("Text that looks like m/d/y reads as days", () => {
    expect(ev("[Date TE]", a)).toBe(ymdToDays(2000, 1, 2));
    expect(ev("[Name TE]", a)).toBe("Ann");
    expect(ev("[Version TE]", a)).toBe("1.2.20");
  });
  test("Number unformats text; blank is null", () => {
    expect(ev("[Income NU] + 1", a)).toBe(1235);
    expect(ev("[Blank NU]", a)).toBe(null);
  });
  test("TF: the string true reads as boolean", () => {
    expect(ev("[Happy TF] = TRUE", a)).toBe(true);
  });
  test("repeating without index → readable list; SUM parses it back", () => {
    expect(ev("[Kids]", a)).toBe("Bart, Lisa and Maggie");
    expect(ev("[Kids#2]", a)).toBe("Lisa");
    expect(ev("SUM([Gift NU])", a)).toBe(600);
  });
  test("unknown variables read as null and concatenate as empty", () => {
    expect(ev("[nobody]", a)).toBe(null);
    expect(ev('[nobody] + "x"', a)).toBe("x");
  });
});

describe("write coercions", () => {
  test("Date var + number → MM/DD/YYYY", () => {
    const a = answersWith({ "When DA": { type: "Date", values: [] } });
    run("SET [When DA] TO TODAY + 1", a);
    expect(a["when da"]?.values).toEqual([null, "03/16/2024"]);
  });
  test("Text + NULL → empty string", () => {
    const a = answersWith({ "Name TE": { type: "Text", values: ["Ann"] } });
    run("SET [Name TE] TO NULL", a);
    expect(a["name te"]?.values).toEqual([null, ""]);
  });
  test("non-Text var + NULL without index resets to [null]", () => {
    const a = answersWith({ "Done TF": { type: "TF", values: [true] }, Kids: { type: "Number", repeating: true, values: [1, 2] } });
    run("SET [Done TF] TO NULL<BR/>SET [Kids] TO NULL", a);
    expect(a["done tf"]?.values).toEqual([null]);
    expect(a["kids"]?.values).toEqual([null]);
  });
  test("TF + non-boolean → blank; TF + \"true\" → true", () => {
    const a = answersWith({ "X TF": { type: "TF", values: [] }, "Y TF": { type: "TF", values: [] } });
    run('SET [X TF] TO 5<BR/>SET [Y TF] TO "TRUE"', a);
    expect(a["x tf"]?.values).toEqual([null, null]);
    expect(a["y tf"]?.values).toEqual([null, true]);
  });
  test("Number + numeric text → number", () => {
    const a = answersWith({ "N NU": { type: "Number", values: [] } });
    run('SET [N NU] TO "1,500"', a);
    expect(a["n nu"]?.values).toEqual([null, 1500]);
  });
});

describe("functions", () => {
  const a = answersWith({
    "DOB DA": { type: "Date", values: ["03/16/1990"] },
    "G MC": { type: "MC", values: ["Female"] },
    "Amounts": { type: "Number", repeating: true, values: [1000, 2000.5, 3] },
  });
  test("AGE with a date string or days (whole years, absolute)", () => {
    expect(ev("AGE([DOB DA])", a)).toBe(33); // birthday tomorrow
    expect(ev('AGE("03/15/1990")', a)).toBe(34);
    expect(ev("AGE(TODAY + 800)", a)).toBe(2);
    expect(ev('AGE("nonsense")', a)).toBe(null);
  });
  test("DATE", () => {
    expect(ev("DATE(TODAY)")).toBe("03/15/2024");
    expect(ev("DATE(TODAY - 30)")).toBe("02/14/2024");
    expect(ev("DATE([DOB DA])", a)).toBe("03/16/1990");
    expect(ev("DATE(0)")).toBe("");
    expect(ev('DATE("")')).toBe("");
  });
  test("TRUNC, TRUNC2, ROUND, ROUND2 (strings accepted)", () => {
    expect(ev("TRUNC(3.99)")).toBe(3);
    expect(ev("TRUNC(-3.99)")).toBe(-3);
    expect(ev('TRUNC2("1,234.567")')).toBe(1234.56);
    expect(ev("ROUND(2.5)")).toBe(3);
    expect(ev("ROUND2(1.005)")).toBe(1.01);
    expect(ev("ROUND2(-1.005)")).toBe(-1.01);
  });
  test("DOLLAR and DOLLARROUND", () => {
    expect(ev("DOLLAR(1345.678)")).toBe("1,345.68");
    expect(ev("DOLLARROUND(9872.5)")).toBe("9,873");
    expect(ev("DOLLAR(0)")).toBe("0.00");
    expect(ev("DOLLAR(-1234567.891)")).toBe("-1,234,567.89");
  });
  test("NUMBER and STRING", () => {
    expect(ev('NUMBER("12.5abc")')).toBe(12.5);
    expect(ev('NUMBER("x")')).toBeNaN();
    expect(ev("STRING(12) + 1")).toBe("121");
    expect(ev("STRING(NULL)")).toBe("");
  });
  test("HASANSWERED", () => {
    expect(ev("HASANSWERED([DOB DA])", a)).toBe(true);
    expect(ev("HASANSWERED([nothing])", a)).toBe(false);
    expect(ev('HASANSWERED("")')).toBe(false);
    expect(ev("HASANSWERED(0)")).toBe(true);
  });
  test("SUM of a repeating variable and of a readable list", () => {
    expect(ev("SUM([Amounts])", a)).toBe(3003.5);
    expect(ev('SUM("100, 200 and 300")')).toBe(600);
    expect(ev('SUM("1,000, x and 5")')).toBe(1005);
  });
  test("ORDINAL", () => {
    expect(ev("ORDINAL(1)")).toBe("first");
    expect(ev("ORDINAL(12)")).toBe("twelfth");
    expect(ev("ORDINAL(13)")).toBe("13th");
    expect(ev("ORDINAL(21)")).toBe("21st");
    expect(ev("ORDINAL(22)")).toBe("22nd");
    expect(ev("ORDINAL(23)")).toBe("23rd");
    expect(ev("ORDINAL(111)")).toBe("111th");
  });
  test("CONTAINS is case-insensitive", () => {
    expect(ev('CONTAINS("Hello World", "WORLD")')).toBe(true);
    expect(ev('CONTAINS("Hello", "bye")')).toBe(false);
  });
  test("HISHER, HIMHER, HESHE", () => {
    expect(ev("HESHE([G MC])", a)).toBe("she");
    expect(ev("HISHER([G MC])", a)).toBe("her");
    expect(ev('HIMHER("Male")')).toBe("him");
    expect(ev('HESHE("male")')).toBe("he");
    expect(ev('HISHER("")')).toBe("their");
  });
  test("function names are case-insensitive; unknown functions return a string", () => {
    expect(ev("ordinal(2)")).toBe("second");
    expect(ev("FROB(1)")).toBe('Unknown function "FROB"');
    expect(ev("constructor(1)")).toBe('Unknown function "constructor"');
  });
});
