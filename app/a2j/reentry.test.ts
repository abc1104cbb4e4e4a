/**
 * End-to-end runs of the Re-Entry Navigator guide (CC BY 4.0, see __fixtures__/re-entry-navigator/ATTRIBUTION.md).
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { getRaw } from "./answers";
import { ymdToDays } from "./dates";
import { confirmFinish, currentPage, resumeInterview, saveAndExit, goBack, startInterview, submitPage, type InterviewState, type TransitionResult } from "./flow";
import { renderPage, reviewAnswers } from "./page-view";
import { loadGuide } from "./guide";
import type { Guide } from "./types";
import type { FormValues } from "./validate";

const TODAY = ymdToDays(2024, 3, 15) as number;
const dir = new URL("./__fixtures__/re-entry-navigator/", import.meta.url);
const loaded = loadGuide(readFileSync(new URL("Guide.json", dir), "utf8"));
if (!loaded.ok) throw new Error(loaded.error);
const guide: Guide = loaded.guide;

/** Template-level conditions of the guide's DAT templates (templates 2–4 are "is-true" on one variable). */
const TEMPLATE_CONDITIONS: Record<string, string> = {
  "Verification of attendance": "Need drug testing or meetings TF",
  "Employment Verification": "Have job TF",
  "Personalized Action Plan": "PAP needed TF",
};
function documents(state: InterviewState): string[] {
  return Object.entries(TEMPLATE_CONDITIONS)
    .filter(([, v]) => {
      const x = getRaw(state.answers, v);
      return !!x && x !== "false";
    })
    .map(([t]) => t)
    .sort();
}

class Runner {
  state: InterviewState;
  visited: string[] = [];
  last: TransitionResult;
  constructor() {
    const r = startInterview(guide, TODAY);
    if (!r.ok) throw new Error(r.error.message);
    this.state = r.state;
    this.last = r;
    this.visited.push(currentPage(r.state) as string);
  }
  get page(): string {
    return currentPage(this.state) as string;
  }
  press(label: string, values: FormValues = {}): TransitionResult {
    const page = guide.pages[this.page];
    const idx = page?.buttons.findIndex((b) => b.label === label) ?? -1;
    if (idx < 0) throw new Error(`no button "${label}" on page "${this.page}"`);
    const r = submitPage(guide, this.state, { pageName: this.page, buttonIndex: idx, values }, TODAY);
    this.last = r;
    if (!r.ok) throw new Error(r.error.message);
    expect(r.scriptErrors).toEqual([]);
    if (r.outcome.kind === "invalid") return r;
    const before = this.page;
    this.state = r.state;
    if (r.outcome.kind === "page" && this.page !== before) this.visited.push(this.page);
    return r;
  }
  /** "Confirm and finish" on "Check your answers". */
  confirm(): TransitionResult {
    const r = confirmFinish(this.state);
    this.last = r;
    if (!r.ok) throw new Error(r.error.message);
    this.state = r.state;
    return r;
  }
  get(name: string) {
    return getRaw(this.state.answers, name);
  }
}

function intro(run: Runner): void {
  run.press("Continue");
  run.press("Continue");
}

describe("Re-Entry Navigator", () => {
  test("loads with no warnings: 39 pages, first and exit pages, steps", () => {
    expect(loaded.warnings).toEqual([]);
    expect(Object.keys(guide.pages)).toHaveLength(39);
    expect(guide.firstPage).toBe("1-Introduction");
    expect(guide.exitPage).toBe("8-Save and Exit");
    expect(guide.steps.map((s) => s.text)).toContain("Conditions of Release");
    expect(guide.vars["client first name te"]?.name).toBe("Client first name TE");
  });

  test("path 1: released, knows the PO, every condition, has a job, drug testing → ASSEMBLE-SUCCESS", () => {
    const run = new Runner();
    intro(run);
    expect(run.get("Today DA")).toBe("03/15/2024");
    expect(run.get("Need employment TF")).toBe(false);
    run.press("Get Started");
    expect(run.get("Returning user TF")).toBe(true);
    // Required fields are checked first.
    const bad = run.press("Continue", { "client first name te": "Ann" });
    expect(bad.ok && bad.outcome.kind === "invalid" && bad.outcome.errors.map((e) => e.inputName)).toEqual(["client last name te"]);
    expect(run.page).toBe("1-Name and gender");
    run.press("Continue", { "client first name te": "Ann", "client last name te": "Lee", "user gender": "Female" });
    expect(run.get("User name full TE")).toBe("Ann Lee");
    expect(run.get("Finished basic info TF")).toBe(true);
    run.press("Already released");
    run.press("Yes"); // knows PO
    run.press("Continue", {
      "need to visit po tf": "true",
      "need stable housing tf": "true",
      "need employment tf": "true",
      "need drug testing or meetings tf": "true",
    });
    expect(run.get("List has housing TE")).toBe("Need stable housing");
    run.press("Continue", { "po name te": "Officer Krupke", "po location te": "1 Main St", "po frequency mc": "Weekly" });
    run.press("Yes"); // has stable housing
    expect(run.get("Finished Housing TF")).toBe(true); // button value "True" coerced to TF
    run.press("Yes"); // has a job
    run.press("Continue", {
      "company name te": "Acme",
      "employment address te": "2 Side St",
      "job start date da": "1/5/2024",
    });
    expect(run.get("Job start date DA")).toBe("01/05/2024");
    run.press("Continue", { "drug and testing specifics mc": "Mandatory drug testing required" });
    run.press("Continue", { "drug testing frequency mc": "Weekly" });
    run.press("Yes"); // knows the testing location → 15-Meetings, whose codeBefore jumps to 1-The End
    run.press("Continue");
    run.press("Continue", { "opt in choice mc": "text" });
    run.press("Continue", { "phone te": "5551234567", "date next visit da": "04/01/2024" });
    const review = run.press("Finish");
    expect(review.ok && review.outcome).toEqual({ kind: "review" });
    const steps = reviewAnswers(guide, run.state, TODAY);
    expect(steps.map((step) => step.title)).toEqual(["Basic Information", "Conditions of Release", "The End"]);
    expect(steps[0]?.answers.slice(0, 4).map((a) => [a.question, a.answer])).toEqual([
      ["First:", "Ann"],
      ["Middle:", "Not answered"],
      ["Last:", "Lee"],
      ["Gender for avatar", "Female"],
    ]);
    // A page answered by one of its buttons shows the button pressed.
    expect(steps[0]?.answers[4]).toMatchObject({ answer: "Already released" });
    expect(steps[2]?.answers).toContainEqual(expect.objectContaining({ question: "Phone number: enter just numbers, no - or / or ()", answer: "5551234567" }));
    const end = run.confirm();
    expect(end.ok && end.outcome).toEqual({ kind: "special", target: "ASSEMBLE-SUCCESS" });
    expect(run.visited).toEqual([
      "1-Introduction",
      "2-Introduction 2",
      "3-Introduction 3",
      "1-Name and gender",
      "2-Release or pending?",
      "3-Know PO",
      "6-Conditions of release",
      "1-PO required",
      "2-Housing (Released already)",
      "7-Employment (Released already)",
      "9-Job information",
      "11-Drug testing and meetings",
      "12-Drug testing frequency",
      "13-Drug testing location known?",
      "1-The End",
      "2-Reminder Opt in",
      "3-Opt in Phone only",
      "7-Finish instructions",
    ]);
    expect(run.get("A2J Interview Incomplete TF")).toBe(false);
    expect(run.get("Finished employment TF")).toBe(true);
    expect(run.get("Opt in choice MC")).toBe("text");
    expect(documents(run.state)).toEqual(["Employment Verification", "Verification of attendance"]);
  });

  test("path 2: no conditions → codeBefore GOTO chain straight to the end; no job documents", () => {
    const run = new Runner();
    intro(run);
    run.press("Get Started");
    run.press("Continue", { "client first name te": "Bo", "client middle name te": "X", "client last name te": "Diaz" });
    expect(run.get("User name full TE")).toBe("Bo X Diaz");
    run.press("Will be released soon");
    expect(run.get("Still in jail TF")).toBe(true);
    run.press("Yes");
    run.press("Continue", {}); // nothing checked
    // 1-PO required → 2-Housing → 7-Employment → 11-Drug testing → 1-The End, all by codeBefore GOTOs
    expect(run.page).toBe("1-The End");
    run.press("Continue"); // 2-Reminder Opt in jumps to 7-Finish instructions (no PO visits)
    expect(run.page).toBe("7-Finish instructions");
    expect(run.visited).toEqual([
      "1-Introduction",
      "2-Introduction 2",
      "3-Introduction 3",
      "1-Name and gender",
      "2-Release or pending?",
      "3-Know PO",
      "6-Conditions of release",
      "1-The End",
      "7-Finish instructions",
    ]);
    expect(run.get("Need to visit PO TF")).toBe(false);
    expect(run.get("List has parole TE")).toBe(" ");
    expect(documents(run.state)).toEqual([]);
  });

  test("path 3: no housing plan, no job → Personalized Action Plan; email reminders", () => {
    const run = new Runner();
    intro(run);
    run.press("Get Started");
    run.press("Continue", { "client first name te": "Cy", "client last name te": "Moe" });
    run.press("Already released");
    run.press("Yes");
    run.press("Continue", { "need to visit po tf": "on", "need stable housing tf": "on", "need employment tf": "on" });
    run.press("Continue", { "po name te": "P", "po location te": "L" });
    run.press("No"); // no stable housing
    run.press("No"); // no plan
    expect(run.page).toBe("6-No plan for housing");
    run.press("Continue");
    expect(run.get("PAP needed TF")).toBe(true);
    run.press("No"); // no job
    run.press("Yes"); // wants job info
    run.press("Continue"); // 10a → 11-Drug testing, which jumps to 1-The End
    run.press("Continue");
    run.press("Continue", { "opt in choice mc": "email" }); // 3-Opt in Phone only jumps to 4-Opt in email
    expect(run.page).toBe("4-Opt in email");
    const bad = run.press("Continue", { "email te": "c@example.org", "date next visit da": "13/45/2024" });
    expect(bad.ok && bad.outcome.kind === "invalid").toBe(true);
    run.press("Continue", { "email te": "c@example.org", "date next visit da": "040124" });
    expect(run.get("Date next visit DA")).toBe("04/01/2024");
    expect(run.visited.slice(6)).toEqual([
      "6-Conditions of release",
      "1-PO required",
      "2-Housing (Released already)",
      "4-Have a plan for housing?",
      "6-No plan for housing",
      "7-Employment (Released already)",
      "10-Don't have a job yet",
      "10a-Don't have a job yet 2",
      "1-The End",
      "2-Reminder Opt in",
      "4-Opt in email",
      "7-Finish instructions",
    ]);
    expect(run.get("Have job TF")).toBe(false);
    expect(documents(run.state)).toEqual(["Personalized Action Plan"]);
  });

  test("path 4: the Exit button is FAIL with its URL and completes the interview", () => {
    const run = new Runner();
    intro(run);
    const r = run.press("Exit");
    expect(r.ok && r.outcome).toEqual({ kind: "special", target: "FAIL", url: "www.google.com" });
    expect(run.get("A2J Interview Incomplete TF")).toBe(false);
  });

  test("path 5: EXIT while looking for the PO; resume from the saved answers, with history; Back keeps answers", () => {
    const run = new Runner();
    intro(run);
    run.press("Get Started");
    run.press("Continue", { "client first name te": "Di", "client last name te": "Ray" });
    run.press("Will be released soon");
    run.press("No"); // does not know the PO
    run.press("I need help finding this information");
    expect(run.page).toBe("5-Don't know PO info 2");
    const exit = run.press("Exit and come back later.");
    expect(exit.ok && exit.outcome).toEqual({ kind: "special", target: "EXIT" });
    expect(run.get("A2J Interview Incomplete TF")).toBe(true);
    expect(run.get("Need PO resources TF")).toBe(true);

    // The server stores the answers as JSON, later resumes.
    const saved = JSON.stringify(run.state.answers);
    const resumed = resumeInterview(guide, saved, TODAY + 3);
    if (!resumed.ok) throw new Error(resumed.error.message);
    expect(currentPage(resumed.state)).toBe("5-Don't know PO info 2");
    expect(resumed.state.history.map((h) => h.interviewPage)).toEqual(run.state.history.map((h) => h.interviewPage));

    // Back four times returns to the name page with its answers.
    let s = resumed.state;
    for (let i = 0; i < 4; i++) {
      const b = goBack(guide, s, TODAY);
      if (!b.ok) throw new Error(b.error.message);
      s = b.state;
    }
    expect(currentPage(s)).toBe("1-Name and gender");
    const view = renderPage(guide, s, TODAY);
    expect(view?.fields.find((f) => f.inputName === "client first name te")?.value).toBe("Di");
    expect(view?.canGoBack).toBe(true);
  });

  test("Save & Exit goes to the exit page; its BACK button returns where the user was", () => {
    const run = new Runner();
    intro(run);
    const exit = saveAndExit(guide, run.state, TODAY);
    if (!exit.ok) throw new Error(exit.error.message);
    expect(currentPage(exit.state)).toBe("8-Save and Exit");
    run.state = exit.state;
    const back = run.press("Go back to interview");
    expect(back.ok && back.outcome).toEqual({ kind: "page", page: "3-Introduction 3" });
  });

  test("render model: macros, steps, buttons, textpick options, radios", () => {
    const run = new Runner();
    intro(run);
    run.press("Get Started");
    run.press("Continue", { "client first name te": "Ann <b>", "client last name te": "Lee" });
    const v = renderPage(guide, run.state, TODAY);
    expect(v?.name).toBe("2-Release or pending?");
    expect(v?.step).toEqual({ index: 1, number: "1", text: "Basic Information" });
    expect(v?.buttons.map((b) => b.label)).toEqual(["Already released", "Will be released soon"]);

    // The returning-user page shows the name through a macro, HTML-escaped.
    const back = resumeInterview(guide, run.state.answers, TODAY);
    if (!back.ok) throw new Error("resume failed");
    const page = { ...back.state, history: [...back.state.history, { interviewPage: "1-Returning landing page", repeatVarValue: null, outerLoopVarValue: null }] };
    expect(renderPage(guide, page, TODAY)?.text).toContain("Welcome back Ann &lt;b&gt;");

    const po = { ...page, history: [...page.history, { interviewPage: "1-PO required", repeatVarValue: null, outerLoopVarValue: null }] };
    const pv = renderPage(guide, po, TODAY);
    expect(pv?.fields[2]?.options.map((o) => o.value)).toEqual(["Daily", "Weekly", "Every other week", "Monthly", "Every other month"]);
    const opt = { ...page, history: [...page.history, { interviewPage: "2-Reminder Opt in", repeatVarValue: null, outerLoopVarValue: null }] };
    const ov = renderPage(guide, opt, TODAY);
    expect(ov?.fields.map((f) => [f.type, f.inputName, f.optionValue])).toEqual([
      ["radio", "opt in choice mc", "text"],
      ["radio", "opt in choice mc", "email"],
      ["radio", "opt in choice mc", "both"],
      ["radio", "opt in choice mc", "none"],
    ]);
  });

  test("popup links are resolved to the popup page", () => {
    const housing = Object.values(guide.pages).find((p) => p.text.includes("POPUP://"));
    expect(housing).toBeTruthy();
    if (!housing) return;
    const state: InterviewState = { answers: {}, history: [{ interviewPage: housing.name, repeatVarValue: null, outerLoopVarValue: null }] };
    const v = renderPage(guide, state, TODAY);
    expect(v?.popups[0]?.name).toBe("Stable Housing");
    expect(v?.popups[0]?.html).toContain("Stable housing means");
    expect(v?.text).toContain('href="#a2j-popup-1"');
    expect(v?.text).not.toContain("POPUP://");
  });

  test("Guide.json and Guide.xml load to the same model", () => {
    const x = loadGuide(readFileSync(new URL("Guide.xml", dir), "utf8"));
    if (!x.ok) throw new Error(x.error);
    expect(x.warnings).toEqual([]);
    // Both files spell the same non-breaking space differently (&nbsp; vs &#160;); compare decoded.
    const norm = (g: Guide) => JSON.parse(JSON.stringify(g).replace(/&nbsp;/g, "\u00a0"));
    expect(norm(x.guide)).toEqual(norm(guide));
  });
});

describe("navigation list", () => {
  test("visitedPages titles (macros evaluated) and goToVisited", async () => {
    const { goToVisited } = await import("./flow");
    const { visitedPages } = await import("./page-view");
    const run = new Runner();
    intro(run);
    run.press("Get Started");
    run.press("Continue", { "client first name te": "Ann", "client last name te": "Lee" });
    const list = visitedPages(guide, run.state, TODAY, 40);
    expect(list.map((v) => v.page)).toEqual(["1-Introduction", "2-Introduction 2", "3-Introduction 3", "1-Name and gender", "2-Release or pending?"]);
    expect(list[0]?.title).toBe("Welcome to the Re-Entry Navigator A2J…");
    expect(list[4]?.current).toBe(true);
    const r = goToVisited(guide, run.state, 1);
    if (!r.ok) throw new Error(r.error.message);
    expect(currentPage(r.state)).toBe("2-Introduction 2");
    expect(r.state.history).toHaveLength(2);
    expect(getRaw(r.state.answers, "Client first name TE")).toBe("Ann");
    expect(goToVisited(guide, run.state, 99).ok).toBe(false);
  });
});
