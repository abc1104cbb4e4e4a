/**
 * A2J Author 4 guides (`<TEMPLATE>`): converted into the A2J 5 model, reported, and walked to their end.
 * The test guide is our own (__fixtures__/a2j4/README.md).
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { getRaw } from "./answers";
import { formatDays, ymdToDays } from "./dates";
import { confirmFinish, currentPage, saveAndExit, startInterview, submitPage, type InterviewState, type TransitionResult } from "./flow";
import { loadGuide, pickListWarnings, withPickLists } from "./guide";
import { renderPage } from "./page-view";
import type { Guide } from "./types";
import { DEFAULT_PROMPTS, type FormValues } from "./validate";

const TODAY = ymdToDays(2024, 3, 15) as number;
const dir = new URL("./__fixtures__/a2j4/", import.meta.url);
const source = readFileSync(new URL("Repair-request_Interview.xml", dir), "utf8");
const counties = readFileSync(new URL("counties.xml", dir), "utf8");

function load(text: string) {
  const r = loadGuide(text);
  if (!r.ok) throw new Error(r.error);
  return r;
}
const loaded = load(source);
const guide: Guide = withPickLists(loaded.guide, { "counties.xml": counties });

class Runner {
  state: InterviewState;
  constructor(readonly g: Guide = guide) {
    const r = startInterview(g, TODAY);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.scriptErrors).toEqual([]);
    this.state = r.state;
  }
  get page(): string {
    return currentPage(this.state) as string;
  }
  press(label: string, values: FormValues = {}): Extract<TransitionResult, { ok: true }> {
    const idx = this.g.pages[this.page]?.buttons.findIndex((b) => b.label === label) ?? -1;
    if (idx < 0) throw new Error(`no button "${label}" on page "${this.page}"`);
    const r = submitPage(this.g, this.state, { pageName: this.page, buttonIndex: idx, values }, TODAY);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.scriptErrors).toEqual([]);
    if (r.outcome.kind !== "invalid") this.state = r.state;
    return r;
  }
  get(name: string, index?: number) {
    return getRaw(this.state.answers, name, index);
  }
}

const NAME = { "client first name te": "Ann", "client last name te": "Lee", "user gender": "Female" };
const CONTACT = { "phone te": "5551234567", "zip te": "12345", "county mc": "River", "state mc": "NS" };

describe("converting an A2J 4 guide", () => {
  test("questions become pages named as in A2J 4 (made unique), ids become names, steps and variables carry over", () => {
    expect(loaded.a2j4).toBe(true);
    expect(guide.title).toBe("Repair request (A2J 4 test guide)");
    expect(guide.authors).toEqual([{ name: "Legal Self-Help test team", title: "", organization: "", email: "" }]);
    expect(guide.toolversion).toBe("2010-06-01");
    expect(guide.firstPage).toBe("1 Welcome");
    expect(guide.exitPage).toBe("11 Saved");
    expect(guide.steps.map((s) => s.text)).toEqual(["START", "About you", "The repairs", "Finish"]);
    expect(Object.keys(guide.pages)).toEqual([
      "1 Welcome",
      "2 Your name",
      "3 Contact",
      "4 Rent",
      "5 Problems",
      "Details",
      "7 Repairs",
      "Details 2",
      "9 High rent",
      "10 Finish",
      "11 Saved",
      "1 Welcome popup",
      "10 Finish popup 2",
      "10 Finish popup",
    ]);
    expect(guide.vars["repair te"]).toEqual({ name: "Repair TE", type: "Text", repeating: true, comment: "" });
    expect(guide.vars["rent checked"]?.type).toBe("Unknown");
    expect(guide.vars["repair te#1"]).toBeUndefined();
    const welcome = guide.pages["1 Welcome"]!;
    expect(welcome.buttons.map((b) => [b.label, b.next, b.url])).toEqual([
      ["Continue", "2 Your name", ""],
      ["I do not rent", "FAIL", "https://example.org/not-a-tenant"],
    ]);
    expect(welcome).toMatchObject({ learn: "Who can use this?", help: "<P>Anyone who rents a home &amp; needs repairs.</P>", notes: "Start here.", textAudioURL: "Audio/1 Welcome.mp3" });
    expect(guide.pages["7 Repairs"]!.buttons[0]).toMatchObject({ next: "Details 2", repeatVar: "RepairCount", repeatVarSet: "=1" });
    expect(guide.pages["Details 2"]).toMatchObject({ repeatVar: "RepairCount", step: 2 });
    expect(guide.pages["9 High rent"]!.buttons[0]).toMatchObject({ name: "Rent checked", value: "yes", next: "5 Problems" });
  });

  test("fields: OPTIONAL is the inverse of required, bounds, calculator, default values and pick lists", () => {
    const [first, middle, , gender] = guide.pages["2 Your name"]!.fields;
    expect(first).toMatchObject({ type: "text", required: true, invalidPrompt: "Please type your first name." });
    expect(middle).toMatchObject({ required: false });
    expect(gender).toMatchObject({ type: "gender", required: false });
    const [phone, zip, ssn, county, state, court] = guide.pages["3 Contact"]!.fields;
    expect([phone?.type, zip?.type, ssn?.type, ssn?.required]).toEqual(["numberphone", "numberzip", "numberssn", false]);
    expect(county).toMatchObject({ type: "textpick", listSrc: "counties.xml", order: "ASC", required: true });
    expect(state).toMatchObject({ listSrc: "states.xml", listData: '<OPTION VALUE="NS">North State</OPTION><OPTION VALUE="SS">South State</OPTION>' });
    expect(court).toMatchObject({ listSrc: "courts.xml", listData: "", required: false });
    expect(guide.pages["4 Rent"]!.fields).toMatchObject([
      { type: "numberdollar", calculator: true },
      { type: "number", min: "1", max: "12" },
    ]);
    expect(guide.pages["Details"]!.fields).toMatchObject([
      { type: "datemdy", min: "1/1/2000", max: "TODAY", required: true },
      { type: "textlong", value: "Nothing was done.", required: false },
    ]);
  });

  test("MACRO/STATEMENT rules become scripts before and after the page, GOTOs name pages, popups become pages", () => {
    expect(guide.pages["1 Welcome"]!.codeBefore).toBe("SET [Started TF] TO TRUE<BR/>SET [Letter date TE] TO %%DATE(TODAY)%%");
    expect(guide.pages["4 Rent"]!.codeAfter).toBe(
      '//Very high rents are checked first<BR/>IF [Rent NU] &gt; $2,000<BR/> SET [Rent band TE] TO "high"<BR/> GOTO "9 High rent"<BR/>ELSE<BR/> SET [Rent band TE] TO "normal"<BR/>END IF',
    );
    expect(guide.pages["10 Finish"]!.codeAfter).toBe(
      '//Urgent repairs get priority<BR/>IF [Urgency MC] = "High"<BR/> SET [Priority TE] TO "urgent"<BR/> //ASK Landlord<BR/>ELSE<BR/> SET [Priority TE] TO "normal"<BR/>END IF',
    );
    expect(guide.pages["1 Welcome"]!.text).toContain('<A HREF="POPUP://1 Welcome popup" TARGET="">');
    expect(guide.pages["1 Welcome popup"]).toMatchObject({ type: "Popup", text: "<P>The person or company you pay rent to.</P>" });
    // A popup inside a popup gets its own page too.
    expect(guide.pages["10 Finish popup"]!.text).toContain('HREF="POPUP://10 Finish popup 2"');
  });

  test("the import report lists what could not be converted, naming the question", () => {
    expect(loaded.warnings).toEqual([
      'question 8 "Details": another question has that name, so it is page "Details 2"',
      'question 5 "5 Problems": 2 checkboxes share the variable "Rooms" with the values "Kitchen", "Bathroom"; they are converted as one TRUE/FALSE answer, so which one was ticked is not kept',
      'question 10 "10 Finish": the rule "ASK Landlord" is neither SET nor GOTO; it is kept as a comment and does nothing',
      'question 10 "10 Finish": a link opens popup 7, which the guide does not have',
      'variable "Repair TE#1" names one answer of a list, not a variable; it is left out',
    ]);
  });

  test("rule shapes: always-true, only-false, GOTO to a missing question, a condition that does not compile, unknown field types", () => {
    const r = load(`<TEMPLATE><TITLE>T</TITLE><FIRSTQUESTION>1</FIRSTQUESTION><VARIABLES><VARIABLE NAME="x" TYPE="Text"/></VARIABLES>
      <QUESTIONS><QUESTION ID="1" NAME="One" STEP="0">
        <FIELDS><FIELD TYPE="slider" REQUIRED="false"><LABEL>Level</LABEL><NAME>x</NAME></FIELD></FIELDS>
        <BUTTONS><BUTTON NEXT="2"><LABEL>Go</LABEL></BUTTON></BUTTONS>
        <MACROS>
          <MACRO><EVENT>BEFORE</EVENT><CONDITION>1=1</CONDITION><STATEMENTS>
            <STATEMENT><CONDITION>true</CONDITION><ACTION>SET x=</ACTION></STATEMENT>
            <STATEMENT><CONDITION>false</CONDITION><ACTION>SET x="never"</ACTION></STATEMENT></STATEMENTS></MACRO>
          <MACRO><EVENT>AFTER</EVENT><CONDITION>x &lt; 3</CONDITION><STATEMENTS>
            <STATEMENT><CONDITION>false</CONDITION><ACTION>GOTO 99</ACTION></STATEMENT></STATEMENTS></MACRO>
          <MACRO><EVENT>AFTER</EVENT><CONDITION>age([x] &gt;= 18</CONDITION><STATEMENTS>
            <STATEMENT><CONDITION>true</CONDITION><ACTION>SET x TO 1</ACTION></STATEMENT></STATEMENTS></MACRO>
        </MACROS></QUESTION>
        <QUESTION ID="2" NAME="Two" STEP="0"><BUTTONS><BUTTON NEXT="SUCCESS"><LABEL>End</LABEL></BUTTON></BUTTONS></QUESTION>
      </QUESTIONS></TEMPLATE>`);
    const one = r.guide.pages["One"]!;
    expect(one.codeBefore).toBe('SET x TO ""');
    expect(one.codeAfter).toBe('IF NOT (x &lt; 3)<BR/> GOTO "99"<BR/>END IF<BR/>IF age([x] &gt;= 18<BR/> SET x TO 1<BR/>END IF');
    expect(one.fields[0]).toMatchObject({ type: "text", required: false });
    expect(r.warnings).toEqual([
      'question 1 "One": field "Level" has the unknown type "slider"; it is a text box',
      'page "One" codeAfter line 4: expected ")" after arguments of age, found end of line',
    ]);
    // The GOTO to question 99 is checked once the rules compile.
    const fixed = load(
      `<TEMPLATE><FIRSTQUESTION>1</FIRSTQUESTION><QUESTIONS><QUESTION ID="1" NAME="One"><MACROS><MACRO><EVENT>AFTER</EVENT><CONDITION>true</CONDITION>
       <STATEMENTS><STATEMENT><CONDITION>true</CONDITION><ACTION>GOTO 99</ACTION></STATEMENT></STATEMENTS></MACRO></MACROS></QUESTION></QUESTIONS></TEMPLATE>`,
    );
    expect(fixed.warnings).toEqual(['page "One" codeAfter: GOTO page "99" does not exist']);
    expect(loadGuide("<TEMPLATE><FIRSTQUESTION>7</FIRSTQUESTION><QUESTIONS><QUESTION ID=\"1\" NAME=\"One\"/></QUESTIONS></TEMPLATE>")).toEqual({
      ok: false,
      error: 'first page "7" does not exist',
    });
  });
});

test("popups that link to each other make one popup page per page and popup, not one per link", () => {
  const r = load(`<TEMPLATE><FIRSTQUESTION>1</FIRSTQUESTION><QUESTIONS><QUESTION ID="1" NAME="One">
      <TEXT><P><A HREF="popup://1">a</A> <A HREF="popup://1">again</A> <A HREF="popup://2">b</A></P></TEXT></QUESTION></QUESTIONS>
    <POPUPS><POPUP ID="1"><TEXT><P><A HREF="popup://1">me</A> <A HREF="popup://2">two</A></P></TEXT></POPUP>
      <POPUP ID="2"><TEXT><P><A HREF="popup://1">one</A></P></TEXT></POPUP></POPUPS></TEMPLATE>`);
  expect(Object.keys(r.guide.pages).sort()).toEqual(["One", "One popup", "One popup 2"]);
  expect(r.guide.pages["One"]!.text).toBe('<P><A HREF="POPUP://One popup">a</A> <A HREF="POPUP://One popup">again</A> <A HREF="POPUP://One popup 2">b</A></P>');
  expect(r.guide.pages["One popup 2"]!.text).toBe('<P><A HREF="POPUP://One popup">one</A></P>');
});

describe("walking the converted guide", () => {
  test("to SUCCESS through the loop, with the rules run on the way", () => {
    const run = new Runner();
    expect(run.get("Started TF")).toBe(true);
    expect(run.get("Letter date TE")).toBe(formatDays(TODAY));
    run.press("Continue");
    expect(run.press("Continue", { ...NAME, "client first name te": "" }).outcome).toEqual({
      kind: "invalid",
      errors: [{ fieldIndex: 0, inputName: "client first name te", message: "Please type your first name." }],
    });
    run.press("Continue", NAME);
    expect(renderPage(guide, run.state, TODAY)?.text).toContain("How can the landlord reach you, Ann?");
    run.press("Continue", CONTACT);
    expect(run.get("County MC")).toBe("River");
    expect(run.press("Continue", { "rent nu": "1,200", "household nu": "13" }).outcome.kind).toBe("invalid");
    run.press("Continue", { "rent nu": "1,200", "household nu": "3" });
    expect(run.get("Rent band TE")).toBe("normal");
    expect(run.page).toBe("5 Problems");
    run.press("Continue", { "no heat tf": "on", "urgency mc": "High" });
    run.press("Continue", { "since da": "01/15/2024", "describe te": "Cold since January." });
    run.press("List them");
    expect(run.page).toBe("Details 2");
    expect(renderPage(guide, run.state, TODAY)?.text).toContain("What is the first repair?");
    run.press("Add another", { "repair te": "Boiler" });
    expect(renderPage(guide, run.state, TODAY)?.text).toContain("What is the second repair?");
    run.press("That is all", { "repair te": "Tap" });
    expect(run.get("Repair TE", 1)).toBe("Boiler");
    expect(run.get("Repair TE", 2)).toBe("Tap");
    expect(run.page).toBe("10 Finish");
    const finish = renderPage(guide, run.state, TODAY)!;
    expect(finish.text).toContain(`Thank you, Ann. Your letter is dated ${formatDays(TODAY)}.`);
    expect(finish.popups.map((p) => [p.name, p.html !== null])).toEqual([
      ["10 Finish popup", true],
      ["7", false],
      ["10 Finish popup 2", true],
    ]);
    expect(run.press("Finish").outcome).toEqual({ kind: "review" });
    expect(run.get("Priority TE")).toBe("urgent");
    const end = confirmFinish(run.state);
    expect(end.ok && end.outcome).toEqual({ kind: "special", target: "SUCCESS" });
  });

  test("a high rent jumps to the check page (GOTO by question number); a button stores its value; FAIL and Save & Exit", () => {
    const run = new Runner();
    expect(run.press("I do not rent").outcome).toEqual({ kind: "special", target: "FAIL", url: "https://example.org/not-a-tenant" });
    const again = new Runner();
    again.press("Continue");
    again.press("Continue", NAME);
    again.press("Continue", CONTACT);
    again.press("Continue", { "rent nu": "2500", "household nu": "1" });
    expect(again.page).toBe("9 High rent");
    expect(again.get("Rent band TE")).toBe("high");
    again.press("Yes");
    expect(again.get("Rent checked")).toBe("yes");
    expect(again.page).toBe("5 Problems");
    const saved = saveAndExit(guide, again.state, TODAY);
    expect(saved.ok && currentPage(saved.state)).toBe("11 Saved");
  });
});

describe("pick lists whose file is missing", () => {
  test("the import report names each field, the file, and what the author can do", () => {
    expect(pickListWarnings(loaded.guide, { "counties.xml": counties })).toEqual([
      'page "3 Contact" field "State:": the pick list file "states.xml" is not among the guide\'s files; the 2 choices saved with the field are used.',
      'page "3 Contact" field "Court:": the pick list file "courts.xml" is not among the guide\'s files, so people cannot answer this question. Add courts.xml to the guide and import it again.',
    ]);
    expect(pickListWarnings(loaded.guide, { "Counties.XML": "<SELECT></SELECT>" })).toContain(
      'page "3 Contact" field "County:": the pick list file "counties.xml" holds no choices (<option> elements), so people cannot answer this question. Fix counties.xml and import the guide again.',
    );
    expect(pickListWarnings(loaded.guide, {})[0]).toBe(
      'page "3 Contact" field "County:": the pick list file "counties.xml" is not among the guide\'s files, so people cannot answer this question. Add counties.xml to the guide and import it again.',
    );
  });

  test("the list file is found ignoring case and a leading ./", () => {
    const g = withPickLists(loaded.guide, { "./COUNTIES.xml": counties });
    expect(g.pages["3 Contact"]!.fields[3]!.listData).toContain('<option value="River">River County</option>');
  });

  test("a field without its list refuses any answer and tells the person the question cannot be answered yet", () => {
    const bare = loaded.guide; // counties.xml not supplied
    const run = new Runner(bare);
    run.press("Continue");
    run.press("Continue", NAME);
    const view = renderPage(bare, run.state, TODAY)!;
    expect(view.fields[3]).toMatchObject({ type: "textpick", options: [], noChoices: { listSrc: "counties.xml", message: DEFAULT_PROMPTS.noChoices } });
    expect(view.fields[4]).toMatchObject({ noChoices: null });
    expect(DEFAULT_PROMPTS.noChoices).toBe(
      "This question cannot be answered yet: its list of choices is missing from the interview. Please tell the organisation that runs this interview.",
    );
    // Free text is refused where a list was declared, whatever is typed; a required one cannot be left blank.
    for (const typed of ["River", "", "anything at all"]) {
      const r = run.press("Continue", { ...CONTACT, "county mc": typed });
      expect(r.outcome).toMatchObject({ kind: "invalid", errors: [{ fieldIndex: 3, inputName: "county mc", message: DEFAULT_PROMPTS.noChoices }] });
    }
    // An optional one (Court, courts.xml never shipped) may be left blank, but not typed into.
    const withCounties = new Runner();
    withCounties.press("Continue");
    withCounties.press("Continue", NAME);
    const typed = withCounties.press("Continue", { ...CONTACT, "court mc": "Supreme" });
    expect(typed.outcome).toMatchObject({ kind: "invalid", errors: [{ fieldIndex: 5, inputName: "court mc", message: DEFAULT_PROMPTS.noChoices }] });
    withCounties.press("Continue", CONTACT);
    expect(withCounties.page).toBe("4 Rent");
    expect(withCounties.get("Court MC")).toBeNull();
  });
});

test("an A2J 4 guide with any element's text or attribute replaced by junk loads or is refused with a reason, never crashes", () => {
  // Every spot holding text or an attribute value.
  const spots = [
    ...[...source.matchAll(/<[A-Z]+\b[^>]*>([^<]*)</g)].map((m) => ({ at: m.index! + m[0].indexOf(">") + 1, length: (m[1] ?? "").length })),
    ...[...source.matchAll(/\b[A-Z]+="([^"]*)"/g)].map((m) => ({ at: m.index! + m[0].indexOf('"') + 1, length: (m[1] ?? "").length })),
  ];
  const junk = ["", "0", "-1", "99", "TRUE", "popup://1", "'", "[", "%%", "SET =", "GOTO", "IF (", "textpick", "slider", " 1 ", "Details"];
  expect(spots.length).toBeGreaterThan(200);
  // Two pieces of junk per spot, turning through the list, keep it to a second or two.
  for (const [i, { at, length }] of spots.entries()) {
    for (const j of [junk[i % junk.length]!, junk[(i + 7) % junk.length]!]) {
      const r = loadGuide(source.slice(0, at) + j + source.slice(at + length));
      // A crash inside the converter or the loader would come back as "could not load the guide: TypeError…".
      if (!r.ok) expect(r.error).not.toMatch(/^could not load the guide/);
      else {
        const started = startInterview(r.guide, TODAY);
        if (!started.ok) expect(started.error.kind).not.toBe("internal");
      }
    }
  }
}, 30_000);
