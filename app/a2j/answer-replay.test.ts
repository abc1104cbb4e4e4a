import { describe, expect, test } from "vitest";
import { answersFromJSON } from "./answers";
import { loadGuideObject } from "./guide";
import { replayAnswers, replayValue } from "./answer-replay";
import type { Answers, Guide } from "./types";

// Replaying an answer set as a person would (issue 32's test scenarios), on small guides written for it.

const TODAY = 20_400;

function guide(pages: Record<string, Record<string, unknown>>, vars: Record<string, string>): Guide {
  const loaded = loadGuideObject({
    title: "Replay test",
    firstPage: Object.keys(pages)[0],
    vars: Object.fromEntries(Object.entries(vars).map(([name, type]) => [name.toLowerCase(), { name, type, repeating: name.endsWith("#") }])),
    pages: Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, { name, type: "A2J", text: name, ...page }])),
  });
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.guide;
}

function answers(values: Record<string, unknown[]>): Answers {
  const read = answersFromJSON(Object.fromEntries(Object.entries(values).map(([name, v]) => [name.toLowerCase(), { name, type: "Text", repeating: v.length > 1, values: [null, ...v] }])));
  if (!read.ok) throw new Error(read.error);
  return read.value;
}

describe("replayAnswers", () => {
  const yesNo = guide(
    {
      Ask: {
        fields: [{ type: "text", label: "Name", name: "Name TE", required: true }],
        buttons: [
          { label: "Yes", next: "Yes page", name: "Agree TF", value: "true" },
          { label: "No", next: "No page", name: "Agree TF", value: "false" },
        ],
      },
      "Yes page": { buttons: [{ label: "Finish", next: "SUCCESS" }] },
      "No page": { buttons: [{ label: "Stop", next: "EXIT" }] },
    },
    { "Name TE": "Text", "Agree TF": "TF" },
  );

  test("presses the button whose variable holds its value in the answers", () => {
    expect(replayAnswers(yesNo, answers({ "Name TE": ["Ada"], "Agree TF": ["false"] }), TODAY)).toMatchObject({ visited: ["Ask", "No page"], outcome: "EXIT", stopped: null });
    const yes = replayAnswers(yesNo, answers({ "Name TE": ["Ada"], "Agree TF": ["true"] }), TODAY);
    expect(yes).toMatchObject({ visited: ["Ask", "Yes page"], outcome: "SUCCESS" });
    expect(replayValue(yes.answers, "Name TE")).toBe("Ada");
  });

  test("without a button variable, follows the answers' own route, else the first button that moves on", () => {
    const route = JSON.stringify([{ interviewPage: "Ask" }, { interviewPage: "No page" }]);
    const plain = guide(
      { Ask: { buttons: [{ label: "A", next: "Yes page" }, { label: "B", next: "No page" }] }, "Yes page": { buttons: [{ next: "SUCCESS" }] }, "No page": { buttons: [{ next: "FAIL" }] } },
      {},
    );
    expect(replayAnswers(plain, answers({ "A2J Visited Pages": [route] }), TODAY)).toMatchObject({ visited: ["Ask", "No page"], outcome: "FAIL" });
    expect(replayAnswers(plain, answers({}), TODAY)).toMatchObject({ visited: ["Ask", "Yes page"], outcome: "SUCCESS" });
  });

  test("fills a repeat loop's fields at each round", () => {
    const loop = guide(
      {
        Count: { fields: [{ type: "number", label: "How many", name: "Count NU", required: true }], buttons: [{ next: "Child", repeatVar: "Round", repeatVarSet: "=1" }] },
        Child: {
          repeatVar: "Round",
          fields: [{ type: "text", label: "Name", name: "Child TE", required: true }],
          buttons: [{ next: "Child", repeatVar: "Round", repeatVarSet: "+=1" }],
          codeAfter: 'IF Round >= [Count NU]<BR/>GOTO "Done"<BR/>END IF',
        },
        Done: { buttons: [{ next: "SUCCESS" }] },
      },
      { "Count NU": "Number", "Child TE": "Text", Round: "Number" },
    );
    const r = replayAnswers(loop, answers({ "Count NU": ["2"], "Child TE": ["Sam", "Kim"] }), TODAY);
    expect(r).toMatchObject({ visited: ["Count", "Child", "Child", "Done"], outcome: "SUCCESS" });
    expect([replayValue(r.answers, "Child TE#1"), replayValue(r.answers, "Child TE#2")]).toEqual(["Sam", "Kim"]);
  });

  test("stops where the answers cannot go on, saying where and why", () => {
    expect(replayAnswers(yesNo, answers({ "Agree TF": ["true"] }), TODAY)).toMatchObject({
      outcome: null,
      stopped: { page: "Ask", reason: "The answers were refused at [Name TE]: You must type a response in the highlighted space before you can continue." },
    });
    const stuck = guide({ Ask: { buttons: [{ label: "Stay", next: "" }] } }, {});
    expect(replayAnswers(stuck, answers({}), TODAY)).toMatchObject({ stopped: { page: "Ask", reason: "No button moves on from this page." } });
    const round = guide({ A: { buttons: [{ next: "B" }] }, B: { buttons: [{ next: "A" }] } }, {});
    expect(replayAnswers(round, answers({}), TODAY).stopped?.reason).toBe("The answers go round the same pages without end.");
  });
});
