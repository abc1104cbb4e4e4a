/**
 * A change on "Check your answers" replays the path to the review (flow.ts, docs/decisions/0040): on generated
 * guides whose scripts compute from answers, branch and loop, the answers after any change equal those of the
 * same answers given from the start; and the replay stops where the person is needed.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { getRaw } from "./answers";
import { ymdToDays } from "./dates";
import { changeAnswer, confirmFinish, currentEntry, currentPage, goBack, saveAndExit, startInterview, submitPage, type InterviewState, type TransitionResult } from "./flow";
import { loadGuideObject } from "./guide";
import { reviewAnswers } from "./page-view";
import type { Guide } from "./types";
import type { FormValues } from "./validate";

const TODAY = ymdToDays(2026, 3, 31) as number;

interface Shape {
  /** Per question page: the multiplier of its computed value, and above which answer it skips the next page. */
  pages: { times: number; skipAbove: number | null }[];
}

/**
 * Pages P1..Pn each ask a number; P(i)'s codeAfter computes [D i] from its answer and P1's, and may skip the next
 * page (never the first or the last); then a loop of 1 to 3 items counted by ItemIndex; the last page's
 * codeBefore adds it all up. Finish goes to SUCCESS.
 */
function generatedGuide(shape: Shape): Guide {
  const n = shape.pages.length;
  const pages: Record<string, unknown> = {};
  shape.pages.forEach((p, k) => {
    const i = k + 1;
    const next = i === n ? "Count" : `P${i + 1}`;
    const skip = p.skipAbove !== null && i + 2 <= n ? `<BR/>IF [N ${i}] > ${p.skipAbove}<BR/>GOTO "P${i + 2}"<BR/>END IF` : "";
    pages[`P${i}`] = {
      name: `P${i}`,
      text: `Question ${i}`,
      fields: [{ type: "number", name: `N ${i}`, label: `Number ${i}`, required: true, min: "0", max: "99" }],
      buttons: [{ label: "Continue", next }],
      codeAfter: `SET [D ${i}] TO [N ${i}] * ${p.times} + [N 1]${skip}`,
    };
  });
  pages.Count = {
    name: "Count",
    text: "How many items?",
    fields: [{ type: "numberpick", name: "Item count", label: "Items", required: true, min: "1", max: "3" }],
    buttons: [{ label: "Continue", next: "Item", repeatVar: "ItemIndex", repeatVarSet: "=1" }],
  };
  pages.Item = {
    name: "Item",
    text: "Item %%ItemIndex%%",
    repeatVar: "ItemIndex",
    fields: [{ type: "number", name: "Item NU", label: "Amount", required: true, min: "0", max: "99" }],
    buttons: [{ label: "Continue", next: "Item", repeatVar: "ItemIndex", repeatVarSet: "+=1" }],
    codeAfter: 'IF ItemIndex >= [Item count]<BR/>GOTO "End"<BR/>END IF',
  };
  pages.End = {
    name: "End",
    text: "Total %%Total%%",
    codeBefore: `SET [Total] TO [N 1] + [N ${n}] + [Item NU#1]<BR/>IF [Item count] >= 2<BR/>SET [Total] TO [Total] + [Item NU#2]<BR/>END IF<BR/>IF [Item count] >= 3<BR/>SET [Total] TO [Total] + [Item NU#3]<BR/>END IF`,
    buttons: [{ label: "Finish", next: "SUCCESS" }],
  };
  const vars: Record<string, unknown> = {};
  const declare = (name: string, type: string, repeating = false) => (vars[name.toLowerCase()] = { name, type, repeating });
  shape.pages.forEach((_, k) => {
    declare(`N ${k + 1}`, "Number");
    declare(`D ${k + 1}`, "Number");
  });
  declare("Item count", "Number");
  declare("ItemIndex", "Number");
  declare("Item NU", "Number", true);
  declare("Total", "Number");
  const r = loadGuideObject({ firstPage: "P1", pages, vars });
  if (!r.ok) throw new Error(r.error);
  return r.guide;
}

/** The answers: one number per question page, then the item count and the items. */
interface Plan {
  numbers: number[];
  items: number[];
}

function form(guide: Guide, state: InterviewState, plan: Plan): FormValues {
  const entry = currentEntry(state)!;
  const page = entry.interviewPage;
  if (page === "Count") return { "item count": String(plan.items.length) };
  if (page === "Item") return { "item nu": String(plan.items[(entry.repeatVarValue ?? 1) - 1] ?? 0) };
  if (page === "End") return {};
  return { [`n ${page.slice(1)}`]: String(plan.numbers[Number(page.slice(1)) - 1]) };
}

function ok(r: TransitionResult): Extract<TransitionResult, { ok: true }> {
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

function toReview(guide: Guide, state: InterviewState, plan: Plan): InterviewState {
  for (let steps = 0; steps < 100 && !(state.review && !state.review.changing); steps++) {
    const r = ok(submitPage(guide, state, { pageName: currentPage(state)!, buttonIndex: 0, values: form(guide, state, plan) }, TODAY));
    expect(r.outcome.kind).not.toBe("invalid");
    state = r.state;
  }
  expect(state.review?.changing).toBe(false);
  return state;
}

const fromStart = (guide: Guide, plan: Plan) => toReview(guide, ok(startInterview(guide, TODAY)).state, plan);

/** Every value the run from the start holds is held by the changed run too (a skipped page may keep more). */
function expectSameDocument(guide: Guide, changed: InterviewState, fresh: InterviewState) {
  for (const [key, v] of Object.entries(fresh.answers)) {
    if (key.startsWith("a2j ")) continue;
    v.values.forEach((value, i) => {
      if (value !== null && value !== "") expect(changed.answers[key]?.values[i], `${v.name}#${i}`).toEqual(value);
    });
  }
  expect(reviewAnswers(guide, changed, TODAY)).toEqual(reviewAnswers(guide, fresh, TODAY));
}

const shapes = fc.record({
  pages: fc.array(fc.record({ times: fc.integer({ min: 1, max: 5 }), skipAbove: fc.option(fc.integer({ min: 10, max: 80 }), { nil: null }) }), { minLength: 3, maxLength: 6 }),
});
const numbers = fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 6, maxLength: 6 });
const items = fc.array(fc.integer({ min: 0, max: 99 }), { minLength: 1, maxLength: 3 });

describe("a change on Check your answers", () => {
  test("on generated guides: any answer changed gives what the same answers give from the start", () => {
    fc.assert(
      fc.property(shapes, numbers, items, numbers, items, fc.nat(), (shape, before, itemsBefore, after, itemsAfter, pick) => {
        const guide = generatedGuide(shape);
        const plan: Plan = { numbers: before, items: itemsBefore };
        const review = fromStart(guide, plan);
        const history = review.review!.history;
        const at = pick % history.length;
        const entry = history[at]!;
        // The changed plan: this page's answer as in `after`.
        const changedPlan: Plan = { numbers: [...before], items: [...itemsBefore] };
        // On the count page only the count changes: items already given keep their answers, new ones come from `itemsAfter`.
        if (entry.interviewPage === "Count") changedPlan.items = itemsAfter.map((item, i) => itemsBefore[i] ?? item);
        else if (entry.interviewPage === "Item") changedPlan.items[(entry.repeatVarValue ?? 1) - 1] = itemsAfter[0]!;
        else if (entry.interviewPage !== "End") changedPlan.numbers[Number(entry.interviewPage.slice(1)) - 1] = after[0]!;
        const opened = ok(changeAnswer(guide, review, at));
        const pressed = ok(submitPage(guide, opened.state, { pageName: entry.interviewPage, buttonIndex: 0, values: form(guide, opened.state, changedPlan) }, TODAY));
        // Pages the change brings up (a skipped page now asked, more items) are answered by the plan.
        const changed = toReview(guide, pressed.state, changedPlan);
        expectSameDocument(guide, changed, fromStart(guide, changedPlan));
        expect(ok(confirmFinish(changed)).outcome).toMatchObject({ kind: "special", target: "SUCCESS" });
      }),
      { numRuns: 150 },
    );
  });

  const shape: Shape = { pages: [{ times: 2, skipAbove: 50 }, { times: 1, skipAbove: null }, { times: 3, skipAbove: null }] };
  const plan: Plan = { numbers: [10, 20, 30], items: [1, 2] };

  test("stops on a page the change brings onto the path, and goes on to the review from there", () => {
    const guide = generatedGuide({ pages: [{ times: 1, skipAbove: null }, { times: 1, skipAbove: 50 }, { times: 1, skipAbove: null }, { times: 1, skipAbove: null }] });
    const review = fromStart(guide, { numbers: [5, 60, 7, 8], items: [1] });
    expect(review.review!.history.map((e) => e.interviewPage)).not.toContain("P3");
    const opened = ok(changeAnswer(guide, review, review.review!.history.findIndex((e) => e.interviewPage === "P2")));
    const stopped = ok(submitPage(guide, opened.state, { pageName: "P2", buttonIndex: 0, values: { "n 2": "40" } }, TODAY));
    expect(stopped.outcome).toEqual({ kind: "page", page: "P3" });
    expect(stopped.state.review).toMatchObject({ changing: true, stopped: { reason: "new-page" } });
    // Not finished while a change is going on.
    expect(confirmFinish(stopped.state).ok).toBe(false);
    const back = ok(submitPage(guide, stopped.state, { pageName: "P3", buttonIndex: 0, values: { "n 3": "9" } }, TODAY));
    expect(back.outcome).toEqual({ kind: "review" });
    expect(getRaw(back.state.answers, "Total")).toBe(5 + 8 + 1);
  });

  test("stops on a page whose stored answers no longer pass; a refused change stays on its page, nothing lost", () => {
    const guide = generatedGuide(shape);
    const review = fromStart(guide, plan);
    const opened = ok(changeAnswer(guide, review, review.review!.history.findIndex((e) => e.interviewPage === "Count")));
    const refused = ok(submitPage(guide, opened.state, { pageName: "Count", buttonIndex: 0, values: { "item count": "9" } }, TODAY));
    expect(refused.outcome.kind).toBe("invalid");
    expect(refused.state).toBe(opened.state);
    // Three items instead of two: the third is new, so the replay stops there.
    const third = ok(submitPage(guide, opened.state, { pageName: "Count", buttonIndex: 0, values: { "item count": "3" } }, TODAY));
    expect(currentEntry(third.state)).toMatchObject({ interviewPage: "Item", repeatVarValue: 3 });
    expect(third.state.review?.stopped).toEqual({ reason: "new-page" });
    // A stored answer that no longer passes (here put out of range by hand) stops the replay on its page.
    const p2 = review.review!.history.findIndex((e) => e.interviewPage === "P2");
    const reopened = ok(changeAnswer(guide, review, review.review!.history.findIndex((e) => e.interviewPage === "P1")));
    reopened.state.answers["n 2"]!.values[1] = 400;
    const invalid = ok(submitPage(guide, reopened.state, { pageName: "P1", buttonIndex: 0, values: { "n 1": "11" } }, TODAY));
    expect(currentEntry(invalid.state)?.interviewPage).toBe(review.review!.history[p2]!.interviewPage);
    expect(invalid.state.review?.stopped).toMatchObject({ reason: "invalid", errors: [{ inputName: "n 2" }] });
  });

  test("Back from the changed page replays too; Save and finish later keeps the change open", () => {
    const guide = generatedGuide(shape);
    const review = fromStart(guide, plan);
    const at = review.review!.history.findIndex((e) => e.interviewPage === "P1");
    const opened = ok(changeAnswer(guide, review, at));
    // The A2J answers changed under the page (as a Back button keeps typed text): Back recomputes what follows.
    opened.state.answers["n 1"]!.values[1] = 12;
    const back = ok(goBack(guide, opened.state, TODAY));
    expect(back.outcome).toEqual({ kind: "review" });
    expect(getRaw(back.state.answers, "D 1")).toBe(12 * 2 + 12);
    expect(getRaw(back.state.answers, "Total")).toBe(12 + 30 + 1 + 2);
    const left = ok(saveAndExit(guide, ok(changeAnswer(guide, review, at)).state, TODAY));
    expect(left.outcome).toMatchObject({ kind: "special", target: "EXIT" });
    expect(left.state.review).toMatchObject({ changing: true, changedAt: at });
  });
});
