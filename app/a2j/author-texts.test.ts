/**
 * Every author text that reaches a person has its macros evaluated (issue 16, part 2): a field's own invalid
 * prompt, its label, help, learn-more text, popups, button labels, the step's name, help image alt text,
 * citations and pick-list choices.
 */
import { describe, expect, test } from "vitest";
import { ymdToDays } from "./dates";
import { confirmFinish, currentPage, startInterview, submitPage, type InterviewState } from "./flow";
import { loadGuideObject } from "./guide";
import { renderMacros } from "./macros";
import { renderPage, reviewAnswers } from "./page-view";
import type { Guide } from "./types";

const TODAY = ymdToDays(2024, 3, 15) as number;

const field = (type: string, name: string, extra: Record<string, unknown> = {}) => ({
  type, label: "", name, value: "", required: true, order: "", min: "", max: "", maxChars: "", calculator: false,
  listSrc: "", listData: "", sample: "", invalidPrompt: "", ...extra,
});
const page = (name: string, step: number, extra: Record<string, unknown>) => ({
  name, type: "A2J", step, repeatVar: "", nested: false, outerLoopVar: "", text: "", learn: "", help: "",
  fields: [], buttons: [], codeBefore: "", codeAfter: "", notes: "", ...extra,
});
const button = (label: string, next: string) => ({ label, next, url: "", message: "", name: "", value: "", repeatVar: "", repeatVarSet: "" });

function guide(): Guide {
  const r = loadGuideObject({
    tool: "A2J", toolversion: "2012-04-19", viewer: "A2J", title: "Author texts", description: "", jurisdiction: "",
    subjectarea: "", language: "en", version: "1", avatar: "", guideGender: "", authors: [],
    firstPage: "Name", exitPage: "",
    steps: [{ number: "0", text: "You" }, { number: "1", text: "About %%[Decedent first name TE]%%" }],
    vars: {
      "decedent first name te": { name: "Decedent first name TE", type: "Text", repeating: false, comment: "" },
      "death date da": { name: "Death date DA", type: "Date", repeating: false, comment: "" },
      "relation te": { name: "Relation TE", type: "Text", repeating: false, comment: "" },
    },
    pages: {
      Name: page("Name", 0, {
        text: "<p>What was the first name of the person who died?</p>",
        fields: [field("text", "Decedent first name TE", { label: "First name" })],
        buttons: [button("Continue", "Death")],
      }),
      Death: page("Death", 1, {
        text: "<p>When did %%[Decedent first name TE]%% die?</p>",
        textCitation: "Citation for %%[Decedent first name TE]%%",
        learn: "Why do we ask about %%[Decedent first name TE]%%?",
        help: '<p>The date is on %%[Decedent first name TE]%%\'s <a href="POPUP://Certificate">death certificate</a>.</p>',
        helpCitation: "Help citation %%=1+1%%",
        helpImageURL: "certificate.png",
        helpAltText: "A death certificate for %%[Decedent first name TE]%%",
        fields: [
          field("datemdy", "Death date DA", {
            label: "Date %%[Decedent first name TE]%% died",
            max: "TODAY",
            invalidPrompt: "Please enter the date %%[Decedent first name TE]%% died, as <b>month/day/year</b>.",
          }),
          field("textpick", "Relation TE", {
            label: "Your relation to %%[Decedent first name TE]%%",
            required: false,
            listData: '<OPTION VALUE="child">Child of %%[Decedent first name TE]%%</OPTION><OPTION VALUE="other">Other</OPTION>',
          }),
        ],
        buttons: [button("Save %%[Decedent first name TE]%%'s date", "SUCCESS")],
      }),
      Certificate: page("Certificate", 1, { type: "Popup", text: "<p>Ask the registry for %%[Decedent first name TE]%%'s certificate.</p>" }),
    },
  });
  if (!r.ok) throw new Error(r.error);
  return r.guide;
}

function atDeathPage(g: Guide): InterviewState {
  const started = startInterview(g, TODAY);
  if (!started.ok) throw new Error(started.error.message);
  const next = submitPage(g, started.state, { pageName: "Name", buttonIndex: 0, values: { "decedent first name te": "Renée & Jo" } }, TODAY);
  if (!next.ok) throw new Error(next.error.message);
  expect(currentPage(next.state)).toBe("Death");
  return next.state;
}

describe("macros in every author text", () => {
  test("a field's own invalid prompt shows its macros evaluated, as plain text", () => {
    const g = guide();
    const state = atDeathPage(g);
    const failed = submitPage(g, state, { pageName: "Death", buttonIndex: 0, values: { "death date da": "31/31/2023" } }, TODAY);
    if (!failed.ok || failed.outcome.kind !== "invalid") throw new Error("expected an invalid submit");
    const view = renderPage(g, failed.state, TODAY, { submitted: { "death date da": "31/31/2023" }, errors: failed.outcome.errors })!;
    const message = "Please enter the date Renée & Jo died, as month/day/year.";
    expect(view.errors.map((e) => e.message)).toEqual([message]);
    expect(view.fields[0]!.error).toBe(message);
  });

  test("a default message is kept as it is", () => {
    const g = guide();
    const state = atDeathPage(g);
    const view = renderPage(g, state, TODAY, { errors: [{ fieldIndex: 1, inputName: "relation te", message: 'Please select one or more checkboxes or "None of the above" to continue.' }] })!;
    expect(view.fields[1]!.error).toBe('Please select one or more checkboxes or "None of the above" to continue.');
  });

  test("labels, help, learn more, popups, citations, alt text, step, choices and buttons", () => {
    const g = guide();
    const view = renderPage(g, atDeathPage(g), TODAY)!;
    expect(view.text).toBe("<p>When did Renée &amp; Jo die?</p>");
    expect(view.fields[0]!.label).toBe("Date Renée &amp; Jo died");
    expect(view.fields[1]!.label).toBe("Your relation to Renée &amp; Jo");
    expect(view.fields[1]!.options.map((o) => o.label)).toEqual(["Child of Renée & Jo", "Other"]);
    expect(view.help).toBe(`<p>The date is on Renée &amp; Jo's <a href="#a2j-popup-1">death certificate</a>.</p>`);
    expect(view.learn).toBe("Why do we ask about Renée &amp; Jo?");
    expect(view.popups).toEqual([{ id: "a2j-popup-1", name: "Certificate", html: "<p>Ask the registry for Renée &amp; Jo's certificate.</p>" }]);
    expect(view.textCitation).toBe("Citation for Renée &amp; Jo");
    expect(view.helpCitation).toBe("Help citation 2");
    expect(view.helpAltText).toBe("A death certificate for Renée & Jo");
    expect(view.step.text).toBe("About Renée &amp; Jo");
    // Button labels are shown as text: evaluated, without markup or entities.
    expect(view.buttons.map((b) => b.label)).toEqual(["Save Renée & Jo's date"]);
  });

  test("a blank button label still reads Continue; the review's step title has its macros", () => {
    const g = guide();
    g.pages.Death!.buttons[0]!.label = "  ";
    const state = atDeathPage(g);
    expect(renderPage(g, state, TODAY)!.buttons[0]!.label).toBe("Continue");
    const done = submitPage(g, state, { pageName: "Death", buttonIndex: 0, values: { "death date da": "01/02/2024" } }, TODAY);
    if (!done.ok) throw new Error(done.error.message);
    expect(reviewAnswers(g, done.state, TODAY).map((s) => s.title)).toEqual(["You", "About Renée & Jo"]);
  });

  test("a button's message on the end screen has its macros evaluated", () => {
    const g = guide();
    g.pages.Death!.buttons[0]!.message = "<p>Thank you. We have <b>%%[Decedent first name TE]%%</b>'s date.</p>";
    const done = submitPage(g, atDeathPage(g), { pageName: "Death", buttonIndex: 0, values: { "death date da": "01/02/2024" } }, TODAY);
    if (!done.ok) throw new Error(done.error.message);
    expect(done.outcome).toEqual({ kind: "review" });
    const finished = confirmFinish(done.state);
    if (!finished.ok) throw new Error(finished.error.message);
    expect(finished.outcome).toMatchObject({ kind: "special", target: "SUCCESS", message: "Thank you. We have Renée & Jo's date." });
  });

  test("%%=expression%% is the same as %%expression%%", () => {
    expect(renderMacros("%%=1+1%% and %%= [X TE]%% and %%1+1%%", { "x te": { name: "X TE", type: "Text", repeating: false, values: [null, "x"] } } as never, TODAY)).toBe("2 and x and 2");
  });
});
