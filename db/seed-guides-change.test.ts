/**
 * Changing an answer from "Check your answers" re-runs what depends on it (issue 25, finding 1): for every
 * answer of our seeded guides, a change made from the review gives the same document as answering the same
 * values from the start. The document is the text of every template that applies (text templates laid out as
 * the PDF is, PDF templates' boxes), so a value a later page's script computes ("the first event was on …")
 * is checked with the answers it comes from.
 */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import {
  changeAnswer,
  currentEntry,
  getRaw,
  loadGuide,
  reviewAnswers,
  startInterview,
  submitPage,
  ymdToDays,
  type FormValues,
  type Guide,
  type InterviewState,
  type TransitionResult,
} from "../app/a2j";
import { applicableTemplates } from "../app/documents/assemble.server";
import { blocksText, layoutTextTemplate } from "../app/documents/layout";
import { variableText } from "../app/documents/values";

const GUIDES_DIR = new URL("./seed/guides/", import.meta.url);
const TODAY = ymdToDays(2026, 3, 31) as number;

function load(guideId: string): Guide {
  const r = loadGuide(readFileSync(new URL(`${guideId}/Guide.json`, GUIDES_DIR), "utf8"));
  if (!r.ok) throw new Error(r.error);
  return r.guide;
}

/** The document's words for these answers: every applicable template, in order. */
async function documentText(guideId: string, state: InterviewState): Promise<string> {
  const readFile = async (path: string) => {
    try {
      return new Uint8Array(readFileSync(new URL(`${guideId}/${path}`, GUIDES_DIR)));
    } catch {
      return null;
    }
  };
  const found = await applicableTemplates(readFile, state.answers);
  if (!found.ok) throw new Error(found.reason);
  return found.templates
    .map((t) => {
      if (t.kind === "text") return blocksText(layoutTextTemplate(t, state.answers).blocks);
      if (t.kind === "pdf") return t.boxes.map((b) => `${b.variable}: ${variableText(state.answers, b.variable) ?? ""}`).join("\n");
      return "";
    })
    .join("\n\f\n");
}

/** What a person answers on a page: the button's label and the form, by page, loop entry and what the page knows. */
type Plan = (page: string, entry: number, state: InterviewState) => { button: string; values?: FormValues };
/** One answer changed: on this page and loop entry, this field posts this value instead. */
type Override = { page: string; entry: number; field: string; value: string | undefined };

function planned(plan: Plan, state: InterviewState, override?: Override): { button: string; values: FormValues } {
  const entry = currentEntry(state)!;
  const page = entry.interviewPage;
  const index = entry.repeatVarValue ?? 1;
  const step = plan(page, index, state);
  const form = { ...(step.values ?? {}) };
  if (override && override.page === page && override.entry === index) {
    if (override.value === undefined) delete form[override.field];
    else form[override.field] = override.value;
  }
  return { button: step.button, values: form };
}

function press(guide: Guide, state: InterviewState, label: string, form: FormValues): TransitionResult & { ok: true } {
  const entry = currentEntry(state)!;
  const page = guide.pages[entry.interviewPage]!;
  const buttonIndex = page.buttons.findIndex((b) => b.label === label);
  if (buttonIndex < 0) throw new Error(`no button "${label}" on ${page.name}`);
  const r = submitPage(guide, state, { pageName: page.name, buttonIndex, values: form }, TODAY);
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

/** Answers pages by the plan until "Check your answers" opens. */
function toReview(guide: Guide, state: InterviewState, plan: Plan, override?: Override): InterviewState {
  for (let steps = 0; steps < 200; steps++) {
    if (state.review && !state.review.changing) return state;
    const step = planned(plan, state, override);
    const r = press(guide, state, step.button, step.values);
    if (r.outcome.kind === "invalid") throw new Error(`${currentEntry(state)?.interviewPage}: ${r.outcome.errors.map((e) => e.message).join(" ")}`);
    state = r.state;
  }
  throw new Error("the plan never reached the review");
}

function answeredFromStart(guide: Guide, plan: Plan, override?: Override): InterviewState {
  const started = startInterview(guide, TODAY);
  if (!started.ok) throw new Error(started.error.message);
  return toReview(guide, started.state, plan, override);
}

/** Other answers for a field, of its kind, that its checks may accept (undefined unticks a box). */
function otherValues(type: string, current: string | undefined, options: string[]): (string | undefined)[] {
  switch (type) {
    case "checkbox":
      return [current ? undefined : "true"];
    case "radio":
      return options.filter((o) => o !== current).slice(0, 1);
    case "number":
    case "numberdollar":
    case "numberpick": {
      const n = Number(String(current ?? "0").replace(/,/g, ""));
      return [String(n + 1), String(n - 1)];
    }
    case "datemdy": {
      const [m, d, y] = String(current ?? "01/15/2026").split("/").map(Number);
      const days = ymdToDays(y!, m!, d!) ?? TODAY - 30;
      const shift = (n: number) => {
        const date = new Date((days + n) * 86_400_000);
        return `${date.getUTCMonth() + 1}/${date.getUTCDate()}/${date.getUTCFullYear()}`;
      };
      return [shift(-3), shift(3)];
    }
    case "attachment":
      return [];
    default:
      return [`${current ?? ""} (changed)`.trim()];
  }
}

/**
 * For every answer on the review: change it there, press Continue (answering by the plan any page the change
 * brings up), and compare the document and the review with those of the same answers given from the start.
 * Returns the changes made.
 */
async function everyChange(guideId: string, plan: Plan): Promise<string[]> {
  const guide = load(guideId);
  const review = answeredFromStart(guide, plan);
  const changed: string[] = [];
  for (const [historyIndex, entry] of review.review!.history.entries()) {
    const page = guide.pages[entry.interviewPage]!;
    const loopEntry = entry.repeatVarValue ?? 1;
    const opened = changeAnswer(guide, review, historyIndex);
    if (!opened.ok) throw new Error(opened.error.message);
    const before = planned(plan, opened.state);
    for (const name of new Set(page.fields.map((f) => f.name.toLowerCase()))) {
      const options = page.fields.filter((f) => f.name.toLowerCase() === name).map((f) => f.value);
      const type = page.fields.find((f) => f.name.toLowerCase() === name)!.type;
      for (const value of otherValues(type, before.values[name] as string | undefined, options)) {
        const override: Override = { page: page.name, entry: loopEntry, field: name, value };
        const step = planned(plan, opened.state, override);
        const pressed = press(guide, opened.state, step.button, step.values);
        if (pressed.outcome.kind === "invalid") continue; // a value the page refuses: try the other one
        const what = `${page.name}#${loopEntry} ${name} → ${String(value)}`;
        const replayed = toReview(guide, pressed.state, plan, override);
        const fresh = answeredFromStart(guide, plan, override);
        expect(await documentText(guideId, replayed), what).toBe(await documentText(guideId, fresh));
        expect(reviewAnswers(guide, replayed, TODAY), what).toEqual(reviewAnswers(guide, fresh, TODAY));
        changed.push(what);
        break;
      }
    }
  }
  return changed;
}

const caseSummary: Plan = (page, entry, state) => {
  const events: Record<number, FormValues> = {
    1: { "event date da": "01/15/2026", "event description te": "My January wages were not paid.", "event record tf": "true" },
    2: { "event date da": "02/20/2026", "event description te": "I asked my manager about the wages by email.", "event record tf": "true" },
    3: { "event date da": "12/01/2025", "event description te": "I started working there." },
  };
  const pages: Record<string, { button: string; values?: FormValues }> = {
    "01-Welcome": { button: "Start" },
    "02-About you": { button: "Continue", values: { "first name te": "Alex", "last name te": "Rivera", "birth date da": "7/4/1990", "contact email te": "alex@example.org" } },
    "03-Your situation": { button: "Continue", values: { "issue title te": "Unpaid wages", "issue place te": "Sampletown", "need interpreter tf": "true", "language te": "Spanish" } },
    "04-Other party": { button: "Continue", values: { "other party type mc": "Organisation", "other party name te": "Example Cleaning Co", "other party relation te": "employer" } },
    "05-Save point": { button: "Continue" },
    "06-Timeline start": { button: "Add the first event" },
    "07-Event": { button: "Continue", values: events[entry] ?? { "event date da": "03/01/2026", "event description te": `Event ${entry}.` } },
    // Three events, then the timeline is done (the page counts the events filled in).
    "08-More events": { button: Number(getRaw(state.answers, "Event count NU")) < 3 ? "Add another event" : "I have finished the timeline" },
    "09-Outcome": { button: "Continue", values: { "outcome wanted te": "To be paid.", "urgent tf": "true", "tried resolve tf": "true" } },
    "10-What you tried": { button: "Continue", values: { "tried details te": "I emailed my manager twice." } },
    "11-Deadline": { button: "Continue", values: { "key date da": "04/20/2026", "key date what te": "Mediation appointment" } },
    "12-Documents": { button: "Continue", values: { "documents list te": "Emails to my manager" } },
    "13-Review": { button: "Create my summary" },
  };
  const step = pages[page];
  if (!step) throw new Error(`no plan for ${page}`);
  return step;
};

const letterOfDemand: Plan = (page, entry) => {
  const items: Record<number, FormValues> = {
    1: { "item description te": "Salary for January 2026", "item amount nu": "2000", "item due date da": "1/31/2026" },
    2: { "item description te": "Salary for February 2026", "item amount nu": "2000", "item due date da": "2/28/2026" },
  };
  const pages: Record<string, { button: string; values?: FormValues }> = {
    "01-Welcome": { button: "Start" },
    "02-Your details": { button: "Continue", values: { "user full name te": "Lim Mei Ling", "user address te": "Blk 1 Sample Street", "user email te": "mei@example.org" } },
    "03-Who owes you": { button: "Continue", values: { "debtor type mc": "Business" } },
    "04-Debtor details": { button: "Continue", values: { "debtor name te": "Acme Trading Pte Ltd", "debtor address te": "1 Example Road" } },
    "05-Business contact": { button: "Continue", values: { "debtor uen te": "201900000A", "debtor contact te": "Ms Tan" } },
    "06-Reason": { button: "Continue", values: { "debt reason mc": "Salary", "debt background te": "I worked in the shop." } },
    "07-How many": { button: "Continue", values: { "item count nu": "2" } },
    "08-Item": { button: "Continue", values: items[entry] ?? { "item description te": `Item ${entry}`, "item amount nu": "100", "item due date da": "3/1/2026" } },
    "09-Total": { button: "This is right" },
    "10-Interest": { button: "Continue", values: { "claim interest tf": "true", "interest basis te": "8% a year" } },
    "11-Deadline": { button: "Continue", values: { "days to pay nu": "14", "next step mc": "Claim" } },
    "12-Documents": { button: "Continue", values: { "document description te": "My payslips" } },
    "13-Review": { button: "Create my letter" },
  };
  const step = pages[page];
  if (!step) throw new Error(`no plan for ${page}`);
  return step;
};

const tenancyDeposit: Plan = (page, entry, state) => {
  const deductions: Record<number, FormValues> = {
    1: { "deduction item te": "Carpet cleaning", "deduction amount nu": "350", "deduction agree mc": "Agreed" },
    2: { "deduction item te": "Repainting", "deduction amount nu": "1200", "deduction agree mc": "Not agreed", "deduction reason te": "The marks were there." },
  };
  const pages: Record<string, { button: string; values?: FormValues }> = {
    "01-Welcome": { button: "Start" },
    "02-About you": { button: "Continue", values: { "tenant name te": "Sam Lee", "tenant address te": "2 Sample Street", "tenant email te": "sam@example.org" } },
    "03-Rental property": { button: "Continue", values: { "property address te": "1 Example Road", "property state mc": "New South Wales" } },
    "04-Tenancy dates": { button: "Continue", values: { "tenancy start da": "3/1/2025", "tenancy end da": "2/14/2026" } },
    "06-Bond": { button: "Continue", values: { "bond amount nu": "2400", "bond receipt tf": "true" } },
    "07-Landlord": { button: "Continue", values: { "landlord type mc": "Agent", "landlord name te": "Harbour Realty" } },
    "08-Claim": { button: "Yes, they want to keep some or all of it" },
    "09-Deduction": { button: "Continue", values: deductions[entry] ?? { "deduction item te": `Item ${entry}`, "deduction amount nu": "10", "deduction agree mc": "Agreed" } },
    "10-More deductions": { button: Number(getRaw(state.answers, "Deduction count NU")) < 2 ? "Add another deduction" : "No more deductions" },
    "11-Deductions summary": { button: "That is right" },
    "12-Outcome": { button: "Continue", values: { "days to reply nu": "14", "next step mc": "Tribunal" } },
    "13-Time limits": { button: "Continue" },
    "14-Condition report": { button: "Continue", values: { "photos exit tf": "true" } },
    "15-Finish": { button: "Create my documents" },
  };
  const step = pages[page];
  if (!step) throw new Error(`no plan for ${page}`);
  return step;
};

describe("a change on Check your answers re-runs what depends on it", () => {
  test("case-summary: the first event's date, worked out on the last page, follows a changed event date (the issue's example)", async () => {
    const guide = load("case-summary");
    const review = answeredFromStart(guide, caseSummary);
    expect(getRaw(review.answers, "First event DA")).toBe("12/01/2025");
    const third = review.review!.history.findIndex((e) => e.interviewPage === "07-Event" && e.repeatVarValue === 3);
    const opened = changeAnswer(guide, review, third);
    if (!opened.ok) throw new Error(opened.error.message);
    const changed = press(guide, opened.state, "Continue", { "event date da": "12/04/2025", "event description te": "I started working there." });
    // Back on the review at once, with the new path as long as the old one.
    expect(changed.outcome).toEqual({ kind: "review" });
    expect(changed.state.review?.history).toEqual(review.review!.history);
    expect(getRaw(changed.state.answers, "First event DA")).toBe("12/04/2025");
    expect(await documentText("case-summary", changed.state)).toContain("The first event was on 12/04/2025");
  });

  test.each([
    ["case-summary", caseSummary],
    ["letter-of-demand", letterOfDemand],
    ["tenancy-deposit", tenancyDeposit],
  ] as const)("%s: any answer changed gives the document of the same answers given from the start", async (guideId, plan) => {
    const changed = await everyChange(guideId, plan);
    // Every answered field of every page was changed once.
    expect(changed.length).toBeGreaterThan(20);
  });
});
