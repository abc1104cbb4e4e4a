import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { cloneAnswers, getRaw, varSet } from "./answers";
import { A2J_DATES, ymdToDays } from "./dates";
import {
  changeAnswer,
  confirmFinish,
  currentPage,
  enterPage,
  goBack,
  keepPageAnswers,
  startInterview,
  submitPage,
  type InterviewState,
  type TransitionResult,
} from "./flow";
import { renderPage, reviewAnswers } from "./page-view";
import { loadGuide, loadGuideObject } from "./guide";
import type { Guide } from "./types";
import type { FormValues } from "./validate";

const TODAY = ymdToDays(2024, 3, 15) as number;

function loopGuide(): Guide {
  const r = loadGuide(readFileSync(new URL("./__fixtures__/loop/Guide.json", import.meta.url), "utf8"));
  if (!r.ok) throw new Error(r.error);
  expect(r.warnings).toEqual([]);
  return r.guide;
}

function ok(r: TransitionResult): Extract<TransitionResult, { ok: true }> {
  if (!r.ok) throw new Error(r.error.message);
  expect(r.scriptErrors).toEqual([]);
  return r;
}

function press(guide: Guide, state: InterviewState, buttonIndex: number, values: FormValues = {}) {
  return submitPage(guide, state, { pageName: currentPage(state) ?? "", buttonIndex, values }, TODAY);
}

/** Two pets: the first one's name and kind given, on the second one's name page. */
function atSecondPetName(g: Guide): InterviewState {
  let s = ok(startInterview(g, TODAY)).state;
  s = ok(press(g, s, 0)).state;
  s = ok(press(g, s, 0, { "owner name te": "Pat" })).state;
  s = ok(press(g, s, 0, { "pet count nu": "2" })).state;
  s = ok(press(g, s, 0, { "pet name te": "Rex", "pet kind mc": "dog" })).state;
  s = ok(press(g, s, 0, {})).state;
  expect(currentPage(s)).toBe("Pet name");
  return s;
}

describe("repeat loop (own fixture)", () => {
  test("each iteration's answers land at their index; macros see the loop", () => {
    const g = loopGuide();
    let s = ok(startInterview(g, TODAY)).state;
    s = ok(press(g, s, 0)).state;
    s = ok(press(g, s, 0, { "owner name te": "Pat", "user gender": "female" })).state;
    expect(renderPage(g, s, TODAY)?.text).toContain("How many pets do you have, Pat?");
    s = ok(press(g, s, 0, { "pet count nu": "3" })).state;
    expect(getRaw(s.answers, "PetIndex")).toBe(1);

    const pets = [
      { name: "Rex", kind: "dog", birthday: "2/3/2015", cost: "$1,200.50", vacc: "on" },
      { name: "Tom", kind: "cat", birthday: "", cost: "", vacc: undefined },
      { name: "Nemo", kind: "Fish", birthday: "12/31/2023", cost: "3", vacc: "true" },
    ];
    pets.forEach((p, i) => {
      expect(currentPage(s)).toBe("Pet name");
      const view = renderPage(g, s, TODAY);
      expect(view?.answerIndex).toBe(i + 1);
      expect(view?.text).toContain(["first", "second", "third"][i]);
      s = ok(press(g, s, 0, { "pet name te": p.name, "pet kind mc": p.kind })).state;
      expect(currentPage(s)).toBe("Pet details");
      expect(renderPage(g, s, TODAY)?.text).toContain(`Tell us about ${p.name}.`);
      const values: FormValues = { "pet birthday da": p.birthday, "pet cost nu": p.cost };
      if (p.vacc) values["pet vaccinated tf"] = p.vacc;
      s = ok(press(g, s, 0, values)).state;
    });
    expect(currentPage(s)).toBe("Summary");
    expect(s.answers["pet name te"]?.values).toEqual([null, "Rex", "Tom", "Nemo"]);
    expect(s.answers["pet kind mc"]?.values).toEqual([null, "dog", "cat", "Fish"]);
    expect(s.answers["pet birthday da"]?.values).toEqual([null, "02/03/2015", null, "12/31/2023"]);
    expect(s.answers["pet cost nu"]?.values).toEqual([null, 1200.5, null, 3]);
    expect(s.answers["pet vaccinated tf"]?.values).toEqual([null, true, false, true]);
    expect(s.answers["pet seen tf"]?.values).toEqual([null, true, true, true]); // button value at the loop index
    // A2J order: the codeAfter GOTO wins over the button target, but the button's +=1 still runs after it.
    expect(getRaw(s.answers, "PetIndex")).toBe(4);
    const summary = renderPage(g, s, TODAY);
    expect(summary?.text).toContain("Your pets: Rex, Tom and Nemo.");
    expect(summary?.text).toContain("$1,203.50");
    expect(getRaw(s.answers, "Pets listed TE")).toBe("Rex, Tom and Nemo");
    const review = ok(press(g, s, 0));
    expect(review.outcome).toEqual({ kind: "review" });
    expect(getRaw(review.state.answers, "A2J Interview Incomplete TF")).toBe(true);
    const done = ok(confirmFinish(review.state));
    expect(done.outcome).toEqual({ kind: "special", target: "SUCCESS" });
    expect(getRaw(done.state.answers, "A2J Interview Incomplete TF")).toBe(false);
    expect(done.state.review).toBeUndefined();
  });

  test("Back inside a loop shows the earlier iteration's answers", () => {
    const g = loopGuide();
    let s = atSecondPetName(g);
    s = ok(press(g, s, 0, { "pet name te": "Tom", "pet kind mc": "cat" })).state;
    expect(currentPage(s)).toBe("Pet details");
    s = ok(goBack(g, s, TODAY)).state; // Pet name #2
    s = ok(goBack(g, s, TODAY)).state; // Pet details #1
    s = ok(goBack(g, s, TODAY)).state; // Pet name #1
    const v = renderPage(g, s, TODAY);
    expect(v?.answerIndex).toBe(1);
    expect(v?.fields[0]?.value).toBe("Rex");
    expect(v?.fields[1]?.value).toBe("dog");
  });

  test("keepPageAnswers keeps what was typed at the loop index and stays on the page, dropping invalid values", () => {
    const g = loopGuide();
    let s = atSecondPetName(g);
    const before = s.history;
    const kept = ok(keepPageAnswers(g, s, { pageName: "Pet name", values: { "pet name te": "Tom", "pet kind mc": "cat" } }, TODAY));
    expect(kept.outcome).toEqual({ kind: "page", page: "Pet name" });
    expect(kept.state.history).toBe(before);
    expect(kept.state.answers["pet name te"]?.values).toEqual([null, "Rex", "Tom"]);
    expect(s.answers["pet name te"]?.values).toEqual([null, "Rex"]); // the input state is not changed
    expect(renderPage(g, kept.state, TODAY)?.fields[0]?.value).toBe("Tom");
    s = ok(press(g, kept.state, 0, { "pet name te": "Tom", "pet kind mc": "cat" })).state; // Pet details #2
    const invalid = ok(keepPageAnswers(g, s, { pageName: "Pet details", values: { "pet birthday da": "not a date", "pet cost nu": "12" } }, TODAY));
    expect(invalid.state.answers["pet cost nu"]?.values).toEqual([null, null, 12]);
    expect(invalid.state.answers["pet birthday da"]?.values ?? [null]).not.toContain("not a date");
    const stale = keepPageAnswers(g, s, { pageName: "Pet name", values: {} }, TODAY);
    expect(stale.ok).toBe(false);
  });

  test("keepPageAnswers shows the page back as typed, a half-typed date included, until the person moves on", () => {
    const g = loopGuide();
    const s = ok(press(g, atSecondPetName(g), 0, { "pet name te": "Tom", "pet kind mc": "cat" })).state; // Pet details #2
    const typed = { "pet birthday da": "", "pet cost nu": "twelve", "pet vaccinated tf": "true" };
    const kept = ok(keepPageAnswers(g, s, { pageName: "Pet details", values: typed, dates: { "pet birthday da": { day: "", month: "Mar", year: "2020" } } }, TODAY));
    expect(kept.state.typed).toMatchObject({ page: "Pet details", index: 2 });
    const shown = renderPage(g, kept.state, TODAY)!;
    expect(shown.fields.map((f) => [f.inputName, f.type === "checkbox" ? f.checked : f.value])).toEqual([
      ["pet birthday da", ""],
      ["pet cost nu", "twelve"],
      ["pet vaccinated tf", true],
    ]);
    expect(shown.fields[0]?.date).toEqual({ day: "", month: "Mar", year: "2020" });
    // Only on that page and loop entry, and any step away drops it.
    const next = ok(press(g, kept.state, 0, { "pet cost nu": "12" }));
    expect(next.state.typed).toBeUndefined();
    expect(ok(goBack(g, kept.state, TODAY)).state.typed).toBeUndefined();
  });

  test("Back into a loop puts the counter back: the page speaks of that item and Continue goes on from it", () => {
    const g = loopGuide();
    let s = ok(startInterview(g, TODAY)).state;
    s = ok(press(g, s, 0)).state;
    s = ok(press(g, s, 0, { "owner name te": "Al" })).state;
    s = ok(press(g, s, 0, { "pet count nu": "3" })).state;
    s = ok(press(g, s, 0, { "pet name te": "Rex", "pet kind mc": "dog" })).state; // → Pet details #1
    s = ok(press(g, s, 0, {})).state; // → Pet name #2
    s = ok(goBack(g, s, TODAY)).state; // Pet details #1
    s = ok(goBack(g, s, TODAY)).state; // Pet name #1
    expect(getRaw(s.answers, "PetIndex")).toBe(1);
    expect(renderPage(g, s, TODAY)?.text).not.toMatch(/second/i);
    s = ok(press(g, s, 0, { "pet name te": "Rex", "pet kind mc": "dog" })).state; // → Pet details #1
    s = ok(press(g, s, 0, {})).state; // → Pet name #2, not #3
    expect(currentPage(s)).toBe("Pet name");
    expect(s.history.at(-1)?.repeatVarValue).toBe(2);
  });

  test("zero pets: codeAfter GOTO overrides the button target; MESSAGE outcome", () => {
    const g = loopGuide();
    let s = ok(startInterview(g, TODAY)).state;
    s = ok(press(g, s, 0)).state;
    s = ok(press(g, s, 0, { "owner name te": "Pat" })).state;
    s = ok(press(g, s, 0, { "pet count nu": "0" })).state;
    expect(currentPage(s)).toBe("No pets");
    const r = ok(press(g, s, 0));
    expect(r.outcome).toEqual({ kind: "special", target: "MESSAGE", message: "Thank you." });
  });

  test("validation: required, maxChars, numberpick range, textpick option, date max TODAY", () => {
    const g = loopGuide();
    let s = ok(startInterview(g, TODAY)).state;
    s = ok(press(g, s, 0)).state;
    const long = ok(press(g, s, 0, { "owner name te": "x".repeat(41) }));
    expect(long.outcome.kind === "invalid" && long.outcome.errors[0]?.message).toBe("Please use no more than 40 characters.");
    const missing = ok(press(g, s, 0, {}));
    expect(missing.outcome.kind).toBe("invalid");
    expect(missing.state).toBe(s); // nothing changed
    s = ok(press(g, s, 0, { "owner name te": "Pat" })).state;
    const tooMany = ok(press(g, s, 0, { "pet count nu": "11" }));
    expect(tooMany.outcome.kind === "invalid" && tooMany.outcome.errors[0]?.message).toBe("Please enter a number between 0 and 10.");
    s = ok(press(g, s, 0, { "pet count nu": "1" })).state;
    const badKind = ok(press(g, s, 0, { "pet name te": "Rex", "pet kind mc": "horse" }));
    expect(badKind.outcome.kind === "invalid" && badKind.outcome.errors.map((e) => e.inputName)).toEqual(["pet kind mc"]);
    s = ok(press(g, s, 0, { "pet name te": "Rex", "pet kind mc": "dog" })).state;
    const future = ok(press(g, s, 0, { "pet birthday da": "03/16/2024" }));
    expect(future.outcome.kind === "invalid" && future.outcome.errors[0]?.message).toBe("Please enter a date on or before 03/15/2024.");
    // Render again with the submitted values and errors.
    if (future.outcome.kind !== "invalid") return;
    const v = renderPage(g, s, TODAY, { submitted: { "pet birthday da": "03/16/2024" }, errors: future.outcome.errors });
    expect(v?.fields[0]?.value).toBe("03/16/2024");
    expect(v?.fields[0]?.error).toBe("Please enter a date on or before 03/15/2024.");
    expect(v?.errors).toHaveLength(1);
  });
});

/** A guide built in code for the flow's edge cases. */
function edgeGuide(): Guide {
  const page = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    type: "A2J",
    step: 0,
    text: `Page ${name}`,
    fields: [],
    buttons: [{ label: "Next", next: "" }],
    codeBefore: "",
    codeAfter: "",
    ...extra,
  });
  const r = loadGuideObject({
    title: "Edge",
    firstPage: "A",
    exitPage: "",
    steps: [{ number: "1", text: "One" }],
    vars: { counter: { name: "Counter", type: "Number", repeating: false } },
    pages: {
      A: page("A", {
        buttons: [
          { label: "to loop", next: "Loop1" },
          { label: "to missing", next: "Nowhere" },
          { label: "stay", next: "" },
          { label: "assemble", next: "ASSEMBLE" },
          { label: "bad script", next: "B" },
          { label: "back", next: "BACK" },
        ],
      }),
      B: page("B", { codeBefore: "SET x TO 1<BR/>IF x = 1", buttons: [{ label: "back", next: "BACK" }] }),
      Loop1: page("Loop1", { codeBefore: 'SET [Counter] TO [Counter] + 1<BR/>GOTO "Loop2"' }),
      Loop2: page("Loop2", { codeBefore: 'GOTO "Loop1"' }),
    },
  });
  if (!r.ok) throw new Error(r.error);
  return r.guide;
}

describe("page flow edge cases", () => {
  test("infinite GOTO loop is stopped after 100 jumps and reported", () => {
    const g = edgeGuide();
    const s = ok(startInterview(g, TODAY)).state;
    const r = press(g, s, 0);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe("infinite-loop");
  });
  test("a missing target page is reported, not thrown", () => {
    const g = edgeGuide();
    const s = ok(startInterview(g, TODAY)).state;
    const r = press(g, s, 1);
    expect(r.ok === false && r.error).toMatchObject({ kind: "missing-page", page: "Nowhere", message: "The page Nowhere does not exist!" });
    const e = enterPage(g, s, "Also missing", TODAY);
    expect(e.ok).toBe(false);
  });
  test("a blank target stays on the page", () => {
    const g = edgeGuide();
    const s = ok(startInterview(g, TODAY)).state;
    const r = ok(press(g, s, 2));
    expect(r.outcome).toEqual({ kind: "page", page: "A" });
    expect(r.state.history).toHaveLength(1);
  });
  test("ASSEMBLE marks the interview complete", () => {
    const g = edgeGuide();
    const s = ok(startInterview(g, TODAY)).state;
    expect(getRaw(s.answers, "A2J Interview Incomplete TF")).toBe(true);
    const review = ok(press(g, s, 3));
    expect(review.outcome).toEqual({ kind: "review" });
    const r = ok(confirmFinish(review.state));
    expect(r.outcome).toEqual({ kind: "special", target: "ASSEMBLE" });
    expect(getRaw(r.state.answers, "A2J Interview Incomplete TF")).toBe(false);
  });
  test("a codeBefore that does not compile is skipped and reported with page and line", () => {
    const g = edgeGuide();
    const s = ok(startInterview(g, TODAY)).state;
    const r = press(g, s, 4);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.scriptErrors).toEqual([{ page: "B", script: "codeBefore", line: 2, message: "IF without END IF" }]);
    expect(getRaw(r.state.answers, "x")).toBe(null);
    expect(currentPage(r.state)).toBe("B");
    const back = ok(press(g, r.state, 0));
    expect(currentPage(back.state)).toBe("A");
  });
  test("BACK on the first page stays; stale page and bad button are errors", () => {
    const g = edgeGuide();
    const s = ok(startInterview(g, TODAY)).state;
    expect(ok(press(g, s, 5)).outcome).toEqual({ kind: "page", page: "A" });
    const stale = submitPage(g, s, { pageName: "B", buttonIndex: 0, values: {} }, TODAY);
    expect(stale.ok === false && stale.error.kind).toBe("not-current-page");
    const bad = submitPage(g, s, { pageName: "A", buttonIndex: 9, values: {} }, TODAY);
    expect(bad.ok === false && bad.error.kind).toBe("no-such-button");
  });
  test("inputs are not mutated", () => {
    const g = edgeGuide();
    const s = ok(startInterview(g, TODAY)).state;
    const before = JSON.stringify(s);
    press(g, s, 4);
    press(g, s, 0);
    expect(JSON.stringify(s)).toBe(before);
  });
  test("history is stored in A2J Visited Pages and the bookmark", () => {
    const g = edgeGuide();
    const s = ok(startInterview(g, TODAY)).state;
    const r = press(g, s, 4);
    if (!r.ok) throw new Error(r.error.message);
    expect(JSON.parse(String(getRaw(r.state.answers, "A2J Visited Pages")))).toEqual([
      { interviewPage: "A", repeatVarValue: null, outerLoopVarValue: null },
      { interviewPage: "B", repeatVarValue: null, outerLoopVarValue: null },
    ]);
    expect(getRaw(r.state.answers, "A2J Bookmark")).toBe("B");
  });
});

describe("synthetic guide (stress, not timed)", { timeout: 60_000 }, () => {
  test("runs to SUCCESS through loops; inPlace and copying transitions agree", async () => {
    const { syntheticGuide } = await import("./__fixtures__/synthetic");
    const syn = syntheticGuide(100);
    const g = loadGuide(syn.json);
    if (!g.ok) throw new Error(g.error);
    expect(g.warnings).toEqual([]);
    let copy = ok(startInterview(g.guide, TODAY)).state;
    let inPlace = ok(startInterview(g.guide, TODAY)).state;
    let steps = 0;
    for (;;) {
      const page = currentPage(copy) ?? "";
      const input = { pageName: page, buttonIndex: 0, values: syn.answersFor(page) };
      const check = steps % 25 === 0;
      const before = check ? JSON.stringify(copy) : "";
      const a = ok(submitPage(g.guide, copy, input, TODAY));
      if (check) expect(JSON.stringify(copy)).toBe(before);
      const b = ok(submitPage(g.guide, inPlace, input, TODAY, { inPlace: true }));
      if (check) expect(JSON.stringify(b.state)).toBe(JSON.stringify(a.state));
      expect(b.outcome).toEqual(a.outcome);
      steps++;
      if (a.outcome.kind === "review") {
        const doneA = ok(confirmFinish(a.state));
        const doneB = ok(confirmFinish(b.state, { inPlace: true }));
        expect(doneA.outcome).toMatchObject({ kind: "special", target: "SUCCESS" });
        expect(JSON.stringify(doneB.state)).toBe(JSON.stringify(doneA.state));
        break;
      }
      expect(a.outcome.kind).toBe("page");
      copy = a.state;
      inPlace = b.state;
      if (steps > 1000) throw new Error("did not finish");
    }
    expect(steps).toBe(100 + 5 * 2); // each of the 5 loop pages is shown 3 times
    expect(copy.answers["t19 te"]?.values).toEqual([null, "Answer 19", "Answer 19", "Answer 19"]);
  });
});

describe("more flow behaviour", () => {
  test("default values (not on radio/checkbox/gender), TODAY on dates; A2J Step N overrides the step text", () => {
    const r = loadGuideObject({
      firstPage: "A",
      steps: [{ number: "1", text: "First step" }],
      pages: {
        A: {
          name: "A",
          fields: [
            { type: "text", name: "T", value: "default text" },
            { type: "datemdy", name: "D", value: "TODAY" },
            { type: "checkbox", name: "C", value: "true" },
            { type: "number", name: "N", value: "5" },
          ],
          buttons: [{ label: "", next: "A" }],
        },
      },
    });
    if (!r.ok) throw new Error(r.error);
    const s = ok(startInterview(r.guide, TODAY)).state;
    const v = renderPage(r.guide, s, TODAY);
    expect(v?.fields.map((f) => [f.value, f.checked])).toEqual([
      ["default text", false],
      ["03/15/2024", false],
      ["true", false],
      ["5", false],
    ]);
    expect(v?.buttons[0]?.label).toBe("Continue");
    expect(v?.step.text).toBe("First step");
    const s2 = ok(submitPage(r.guide, s, { pageName: "A", buttonIndex: 0, values: { t: "mine", d: "03/15/2024", n: "5" } }, TODAY)).state;
    s2.answers["a2j step 0"] = { name: "A2J Step 0", type: "Text", repeating: false, values: [null, "Custom <step>"] };
    const v2 = renderPage(r.guide, s2, TODAY);
    expect(v2?.fields[0]?.value).toBe("mine");
    expect(v2?.step.text).toBe("Custom &lt;step&gt;");
    expect(v2?.allowNavigation).toBe(true);
    s2.answers["a2j navigation tf"] = { name: "A2J Navigation TF", type: "TF", repeating: false, values: [null, false] };
    expect(renderPage(r.guide, s2, TODAY)?.allowNavigation).toBe(false);
  });

  test("RESUME button returns like BACK; resume from ANX answers", async () => {
    const { answersFromANX, answersToANX } = await import("./anx");
    const r = loadGuideObject({
      firstPage: "A",
      exitPage: "Exit",
      pages: {
        A: { name: "A", fields: [{ type: "text", name: "Who" }], buttons: [{ next: "B" }] },
        B: { name: "B", buttons: [{ next: "SUCCESS" }] },
        Exit: { name: "Exit", buttons: [{ label: "Resume", next: "RESUME" }, { label: "Leave", next: "EXIT" }] },
      },
    });
    if (!r.ok) throw new Error(r.error);
    const g = r.guide;
    let s = ok(startInterview(g, TODAY)).state;
    s = ok(submitPage(g, s, { pageName: "A", buttonIndex: 0, values: { who: "Zoë \"Z\" <x>" } }, TODAY)).state;
    const { saveAndExit } = await import("./flow");
    s = ok(saveAndExit(g, s, TODAY)).state;
    expect(currentPage(s)).toBe("Exit");
    const left = ok(submitPage(g, s, { pageName: "Exit", buttonIndex: 1, values: {} }, TODAY));
    expect(left.outcome).toEqual({ kind: "special", target: "EXIT" });
    // Saved as ANX, later resumed on the exit page; RESUME returns to B.
    const anx = answersToANX(left.state.answers);
    const back = answersFromANX(anx, g);
    if (!back.ok) throw new Error(back.error);
    const { resumeInterview } = await import("./flow");
    const resumed = ok(resumeInterview(g, back.value, TODAY));
    expect(resumed.state.history.map((h) => h.interviewPage)).toEqual(["A", "B", "Exit"]);
    expect(getRaw(resumed.state.answers, "Who")).toBe('Zoë "Z" <x>');
    const again = ok(submitPage(g, resumed.state, { pageName: "Exit", buttonIndex: 0, values: {} }, TODAY));
    expect(again.outcome).toEqual({ kind: "page", page: "B" });
  });

  test("resume without history falls back to the bookmark, then to the first page", async () => {
    const { resumeInterview } = await import("./flow");
    const g = edgeGuide();
    const viaBookmark = ok(resumeInterview(g, { "a2j bookmark": { name: "A2J Bookmark", type: "Text", repeating: false, values: [null, "B"] } }, TODAY));
    expect(currentPage(viaBookmark.state)).toBe("B");
    const fresh = ok(resumeInterview(g, "{}", TODAY));
    expect(currentPage(fresh.state)).toBe("A");
    const bad = resumeInterview(g, "not json", TODAY);
    expect(bad.ok).toBe(false);
  });

  test("deeply nested scripts and XML do not throw", async () => {
    const { runScript } = await import("./script");
    const { answersFromANX } = await import("./anx");
    const deep = "IF TRUE<BR/>".repeat(20000) + "SET x TO 1" + "<BR/>END IF".repeat(20000);
    const r = runScript(deep, { answers: {}, today: TODAY });
    expect(Array.isArray(r.errors)).toBe(true);
    const xml = "<AnswerSet><Answer name='x'>" + "<a>".repeat(50000) + "</a>".repeat(50000) + "</Answer></AnswerSet>";
    expect(typeof answersFromANX(xml).ok).toBe("boolean");
  });
});

describe("BACK buttons", () => {
  test("keep valid typed answers, drop invalid ones, do not block, skip codeAfter", () => {
    const r = loadGuideObject({
      firstPage: "A",
      pages: {
        A: { name: "A", buttons: [{ next: "B" }] },
        B: {
          name: "B",
          fields: [
            { type: "text", name: "Name", required: true },
            { type: "number", name: "Age", max: "120" },
          ],
          buttons: [{ label: "Back", next: "BACK", name: "Went back TF", value: "true" }],
          codeAfter: "SET ran TO 1",
        },
      },
      vars: { "went back tf": { name: "Went back TF", type: "TF" } },
    });
    if (!r.ok) throw new Error(r.error);
    let s = ok(startInterview(r.guide, TODAY)).state;
    s = ok(submitPage(r.guide, s, { pageName: "A", buttonIndex: 0, values: {} }, TODAY)).state;
    const b = ok(submitPage(r.guide, s, { pageName: "B", buttonIndex: 0, values: { name: "", age: "200" } }, TODAY));
    expect(b.outcome).toEqual({ kind: "page", page: "A" });
    expect(getRaw(b.state.answers, "Age")).toBe(null);
    expect(getRaw(b.state.answers, "Went back TF")).toBe(true);
    expect(getRaw(b.state.answers, "ran")).toBe(null);
    const s2 = ok(submitPage(r.guide, b.state, { pageName: "A", buttonIndex: 0, values: {} }, TODAY)).state;
    const b2 = ok(submitPage(r.guide, s2, { pageName: "B", buttonIndex: 0, values: { name: "Al", age: "40" } }, TODAY));
    expect(getRaw(b2.state.answers, "Name")).toBe("Al");
    expect(getRaw(b2.state.answers, "Age")).toBe(40);
  });
});

describe("nested loops", () => {
  test("fields bind to the inner counter; history records the outer counter", () => {
    const r = loadGuideObject({
      firstPage: "Start",
      vars: {
        house: { name: "House", type: "Number" },
        room: { name: "Room", type: "Number" },
        "room name": { name: "Room name", type: "Text", repeating: true },
        "room house": { name: "Room house", type: "Number", repeating: true },
      },
      pages: {
        Start: { name: "Start", buttons: [{ next: "Room", repeatVar: "House", repeatVarSet: "=1" }], codeAfter: "SET Room TO 1" },
        Room: {
          name: "Room",
          repeatVar: "Room",
          outerLoopVar: "House",
          nested: true,
          text: "House %%House%%, room %%Room%%",
          fields: [{ type: "text", name: "Room name", required: true }],
          buttons: [{ next: "Room", repeatVar: "Room", repeatVarSet: "+=1" }],
          codeAfter: 'SET [Room house#Room] TO House<BR/>IF Room = 2 AND House = 1<BR/>SET House TO 2<BR/>ELSE IF Room = 3<BR/>GOTO "Done"<BR/>END IF',
        },
        Done: { name: "Done", text: "%%[Room name]%%" },
      },
    });
    if (!r.ok) throw new Error(r.error);
    const g = r.guide;
    let s = ok(startInterview(g, TODAY)).state;
    s = ok(submitPage(g, s, { pageName: "Start", buttonIndex: 0, values: {} }, TODAY)).state;
    for (const name of ["Kitchen", "Hall", "Attic"]) {
      expect(currentPage(s)).toBe("Room");
      s = ok(submitPage(g, s, { pageName: "Room", buttonIndex: 0, values: { "room name": name } }, TODAY)).state;
    }
    expect(currentPage(s)).toBe("Done");
    expect(s.history.filter((h) => h.interviewPage === "Room").map((h) => [h.outerLoopVarValue, h.repeatVarValue])).toEqual([
      [1, 1],
      [1, 2],
      [2, 3],
    ]);
    expect(s.answers["room name"]?.values).toEqual([null, "Kitchen", "Hall", "Attic"]);
    expect(s.answers["room house"]?.values).toEqual([null, 1, 1, 2]);
    expect(renderPage(g, s, TODAY)?.text).toBe("Kitchen, Hall and Attic");
  });
});

describe("GOTO to a page that does not exist", () => {
  test("is a compile error, as in A2J: the script is skipped and reported, the button's target is used", () => {
    const r = loadGuideObject({
      firstPage: "A",
      pages: {
        A: { name: "A", buttons: [{ next: "B" }], codeAfter: 'SET x TO 1<BR/>IF x = 1<BR/>GOTO "Gone"<BR/>END IF' },
        B: { name: "B", codeBefore: 'GOTO "Also gone"' },
      },
    });
    if (!r.ok) throw new Error(r.error);
    expect(r.warnings).toContain('page "A" codeAfter: GOTO page "Gone" does not exist');
    const s = ok(startInterview(r.guide, TODAY)).state;
    const t = submitPage(r.guide, s, { pageName: "A", buttonIndex: 0, values: {} }, TODAY);
    if (!t.ok) throw new Error(t.error.message);
    expect(t.outcome).toEqual({ kind: "page", page: "B" });
    expect(getRaw(t.state.answers, "x")).toBe(null);
    expect(t.scriptErrors).toEqual([
      { page: "A", script: "codeAfter", line: 3, message: 'Page "Gone" does not exist.' },
      { page: "B", script: "codeBefore", line: 1, message: 'Page "Also gone" does not exist.' },
    ]);
  });
});

/** The loop guide run to its Summary page with two pets, then its Finish button pressed: the review is open. */
function atReview(g: Guide): InterviewState {
  let s = ok(startInterview(g, TODAY)).state;
  s = ok(press(g, s, 0)).state;
  s = ok(press(g, s, 0, { "owner name te": "Pat", "user gender": "female" })).state;
  s = ok(press(g, s, 0, { "pet count nu": "2" })).state;
  for (const [name, kind, cost] of [["Rex", "dog", "10"], ["Tom", "cat", ""]]) {
    s = ok(press(g, s, 0, { "pet name te": name!, "pet kind mc": kind! })).state;
    s = ok(press(g, s, 0, { "pet cost nu": cost!, "pet vaccinated tf": "true" })).state;
  }
  expect(currentPage(s)).toBe("Summary");
  const review = ok(press(g, s, 0));
  expect(review.outcome).toEqual({ kind: "review" });
  return review.state;
}

describe("Check your answers", () => {
  test("lists every answer in the order asked, grouped by step, loop entries numbered", () => {
    const g = loopGuide();
    const s = atReview(g);
    const steps = reviewAnswers(g, s, TODAY);
    expect(steps.map((step) => step.title)).toEqual(["Start", "Count", "Each pet"]);
    expect(steps[0]?.answers.map((a) => [a.question, a.answer, a.entry])).toEqual([
      ["Your name", "Pat", null],
      ["Gender", "Female", null],
    ]);
    expect(steps[1]?.answers.map((a) => [a.question, a.answer])).toEqual([["Number of pets", "2"]]);
    expect(steps[2]?.answers.map((a) => [a.entry, a.question, a.answer])).toEqual([
      [1, "Name", "Rex"],
      [1, "Kind", "Dog"],
      [1, "Birthday", "Not answered"],
      [1, "Yearly cost", "10"],
      [1, "Vaccinated", "Yes"],
      [2, "Name", "Tom"],
      [2, "Kind", "Cat"],
      [2, "Birthday", "Not answered"],
      [2, "Yearly cost", "Not answered"],
      [2, "Vaccinated", "Yes"],
    ]);
    // Loop entries are named by the loop's noun, as on the page's progress ("PetIndex": "Pet 2").
    expect(new Set(steps[2]?.answers.map((a) => a.entryNoun))).toEqual(new Set(["Pet"]));
    expect(steps[0]?.answers[0]?.entryNoun).toBeNull();
  });

  test("numbers show with the decimal sign their fields read, which may not be the dates' language's", () => {
    const g = loopGuide();
    let s = atReview(g);
    const answers = cloneAnswers(s.answers);
    varSet(answers, "pet cost nu", 1250.5, 1);
    s = { ...s, answers };
    const cost = (steps: ReturnType<typeof reviewAnswers>) => steps[2]?.answers.find((a) => a.question === "Yearly cost")?.answer;
    expect(cost(reviewAnswers(g, s, TODAY))).toBe("1250.5");
    expect(cost(reviewAnswers(g, s, TODAY, { ...A2J_DATES, language: "fr" }))).toBe("1250,5");
    // A guide in Mexican Spanish: its dates in es-MX, its numbers read as the Spanish catalogue's hint says (a comma).
    expect(cost(reviewAnswers(g, s, TODAY, { ...A2J_DATES, language: "es-MX" }))).toBe("1250.5");
    expect(cost(reviewAnswers(g, s, TODAY, { ...A2J_DATES, language: "es-MX" }, "es"))).toBe("1250,5");
  });

  test("Change opens the page at its loop entry; its Continue returns to the review with the new answer", () => {
    const g = loopGuide();
    const s = atReview(g);
    const tom = reviewAnswers(g, s, TODAY)[2]!.answers.find((a) => a.answer === "Tom")!;
    const opened = ok(changeAnswer(g, s, tom.historyIndex));
    expect(opened.outcome).toEqual({ kind: "page", page: "Pet name" });
    expect(renderPage(g, opened.state, TODAY)?.fields[0]?.value).toBe("Tom");
    expect(renderPage(g, opened.state, TODAY)?.answerIndex).toBe(2);
    // While a page is open for a change, "Confirm and finish" is not possible.
    expect(confirmFinish(opened.state).ok).toBe(false);
    const back = ok(press(g, opened.state, 0, { "pet name te": "Tommy", "pet kind mc": "cat" }));
    expect(back.outcome).toEqual({ kind: "review" });
    expect(back.state.history).toEqual(s.history);
    expect(reviewAnswers(g, back.state, TODAY)[2]!.answers.map((a) => a.answer)).toContain("Tommy");
    expect(getRaw(back.state.answers, "Pet name TE", 1)).toBe("Rex");
    const done = ok(confirmFinish(back.state));
    expect(done.outcome).toEqual({ kind: "special", target: "SUCCESS" });
  });

  test("an invalid change stays on the page; Back from it returns to the review; Back from the review to the finishing page", () => {
    const g = loopGuide();
    const s = atReview(g);
    const owner = reviewAnswers(g, s, TODAY)[0]!.answers[0]!;
    const opened = ok(changeAnswer(g, s, owner.historyIndex)).state;
    expect(currentPage(opened)).toBe("Owner");
    const back = ok(goBack(g, opened, TODAY));
    expect(back.outcome).toEqual({ kind: "review" });
    const left = ok(goBack(g, back.state, TODAY));
    expect(left.outcome).toEqual({ kind: "page", page: "Summary" });
    expect(left.state.review).toBeUndefined();
    // The finishing page's own buttons work again, and pressing Finish reopens the review.
    expect(ok(press(g, left.state, 0)).outcome).toEqual({ kind: "review" });
  });

  test("refuses what does not fit: no review open, a page index that was never visited, a press on the review itself", () => {
    const g = loopGuide();
    const started = ok(startInterview(g, TODAY)).state;
    expect(confirmFinish(started)).toMatchObject({ ok: false, error: { kind: "no-review" } });
    expect(changeAnswer(g, started, 0)).toMatchObject({ ok: false, error: { kind: "no-review" } });
    const s = atReview(g);
    expect(changeAnswer(g, s, 99)).toMatchObject({ ok: false, error: { kind: "missing-page" } });
    expect(changeAnswer(g, s, 1.5)).toMatchObject({ ok: false, error: { kind: "missing-page" } });
    expect(press(g, s, 0)).toMatchObject({ ok: false, error: { kind: "no-review" } });
  });
});

describe("what a page says about itself", () => {
  test("the heading is the question when short, else its first sentence, else the step's name", () => {
    const g = loopGuide();
    let s = ok(startInterview(g, TODAY)).state;
    s = ok(press(g, s, 0)).state;
    const owner = renderPage(g, s, TODAY)!;
    expect(owner.heading).toBe("What is your name?");
    expect(owner.headingIsText).toBe(true);
    // A text field and a choice: each keeps its own label or legend.
    expect(owner.oneQuestion).toBe(false);
    const long = (text: string) => ({ ...g, pages: { ...g.pages, Owner: { ...g.pages.Owner!, text } } });
    const sentence = "Tell us about you. " + "These details go at the top of the letter so that they know who wrote it. ".repeat(3);
    expect(renderPage(long(sentence), s, TODAY)!.heading).toBe("Tell us about you.");
    expect(renderPage(long(sentence), s, TODAY)!.headingIsText).toBe(false);
    expect(renderPage(long("word ".repeat(60)), s, TODAY)!.heading).toBe("Start");
    s = ok(press(g, s, 0, { "owner name te": "Pat" })).state;
    s = ok(press(g, s, 0, { "pet count nu": "1" })).state;
    // Name and kind of one pet answer one question: one fieldset under the heading.
    const pet = renderPage(g, s, TODAY)!;
    expect(pet.heading).toBe("What is the name of your first pet?");
    expect(pet.oneQuestion).toBe(true);
  });
});
