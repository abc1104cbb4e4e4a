import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { createExplorer, exploreGuide, type HealthFinding } from "./explore";
import { loadGuideObject } from "./guide";
import type { Guide } from "./types";

// Small guides written for the health check, one fault each (issue 32), and the demo guides.

const TODAY = 20_400; // 2025-11-08

type PageSpec = Record<string, unknown>;
const field = (type: string, name: string, extra: Record<string, unknown> = {}) => ({ type, label: name, name, required: true, ...extra });
const button = (next: string, extra: Record<string, unknown> = {}) => ({ label: extra.label ?? "Continue", next, ...extra });

/** A guide from its pages (the first is where it starts); every variable the fields name is declared. */
function guide(pages: Record<string, PageSpec>, extra: Record<string, unknown> = {}): Guide {
  const vars: Record<string, unknown> = {};
  for (const page of Object.values(pages)) {
    for (const f of (page.fields as { name: string }[] | undefined) ?? []) vars[f.name.toLowerCase()] = { name: f.name, type: "Text" };
  }
  const loaded = loadGuideObject({
    title: "Health check test",
    firstPage: Object.keys(pages)[0],
    vars,
    pages: Object.fromEntries(Object.entries(pages).map(([name, page]) => [name, { name, type: "A2J", text: `<p>${name}</p>`, ...page }])),
    ...extra,
  });
  if (!loaded.ok) throw new Error(loaded.error);
  return loaded.guide;
}

const explore = (g: Guide, files?: string[]) => exploreGuide(g, { today: TODAY, files: files ? new Set(files) : null });
const only = (findings: HealthFinding[], kind: HealthFinding["kind"]) => findings.filter((f) => f.kind === kind);

describe("each finding, with its page", () => {
  test("a page no path reaches", () => {
    const r = explore(guide({ Start: { buttons: [button("SUCCESS")] }, Orphan: { buttons: [button("SUCCESS")] } }));
    expect(r.complete).toBe(true);
    expect(only(r.findings, "unreached")).toEqual([
      { kind: "unreached", severity: "warning", page: "Orphan", where: "", message: "No path from the start reaches this page." },
    ]);
    expect(r.pagesReached).toBe(1);
    expect(r.pagesTotal).toBe(2);
    expect(r.outcomes).toEqual(["SUCCESS"]);
  });

  test("a page with no button, and a page whose buttons all stay on it", () => {
    const r = explore(
      guide({
        Start: { fields: [field("radio", "Way", { value: "a" }), field("radio", "Way", { value: "b" })], buttons: [button("Stuck")], codeAfter: 'IF [Way] = "b"<BR/>GOTO "Stays"<BR/>END IF' },
        Stuck: {},
        Stays: { buttons: [button("", { label: "Yes", name: "Answer TF", value: "true" }), button("", { label: "No" })] },
      }),
    );
    expect(only(r.findings, "dead-end").map((f) => [f.page, f.severity, f.message])).toEqual([
      ["Stuck", "error", "The page has no buttons: a person who reaches it cannot go on."],
      ["Stays", "error", "No button moves on from this page (each stays on it): a person who reaches it cannot go on."],
    ]);
  });

  test("a page whose only button goes back is not a dead end", () => {
    const r = explore(guide({ Start: { buttons: [button("Wrong")] }, Wrong: { buttons: [button("BACK", { label: "Go back" })] } }));
    expect(only(r.findings, "dead-end")).toEqual([]);
  });

  test("a page where every way forward is refused", () => {
    // A required choice whose only option stores nothing: no answer is ever accepted.
    const r = explore(guide({ Start: { fields: [field("radio", "Choice", { value: "" })], buttons: [button("SUCCESS"), button("Other")] }, Other: { buttons: [button("SUCCESS")] } }));
    expect(only(r.findings, "all-refused")).toEqual([
      expect.objectContaining({ page: "Start", severity: "error", message: "Every answer the check gave was refused by the page's own limits: a person may not be able to go on." }),
    ]);
  });

  test("a button and a GOTO that name missing pages", () => {
    const r = explore(
      guide({
        Start: { buttons: [button("Nowhere", { label: "Go on" }), button("Next")] },
        Next: { buttons: [button("SUCCESS")], codeAfter: 'IF TRUE<BR/>GOTO "Gone"<BR/>END IF' },
      }),
    );
    expect(only(r.findings, "missing-page")).toEqual([
      {
        kind: "missing-page",
        severity: "error",
        page: "Start",
        where: 'button "Go on"',
        message: 'The button goes to "Nowhere", a page the guide does not have: a person who presses it meets an error.',
      },
      {
        kind: "missing-page",
        severity: "warning",
        page: "Next",
        where: "codeAfter line 2",
        message: 'GOTO "Gone" names a page the guide does not have, so the whole script is skipped.',
      },
    ]);
  });

  test("script errors: one that cannot be read, and one that stops as it runs", () => {
    const r = explore(
      guide({
        Start: { buttons: [button("Next")], codeBefore: "SET [A] TO" },
        Next: { buttons: [button("SUCCESS")], codeAfter: "SET [B] TO 1<BR/>SET [Items#0] TO 2" },
      }),
    );
    const errors = only(r.findings, "script-error");
    expect(errors.map((f) => [f.page, f.where])).toEqual([
      ["Start", "codeBefore line 1"],
      ["Next", "codeAfter line 2"],
    ]);
    expect(errors[0]?.message).toMatch(/^The script cannot be read, so none of it runs: /);
    expect(errors[1]?.message).toBe("The script stops here: bad index for [Items]");
  });

  test("GOTOs that never end, and pages a person only goes round", () => {
    const r = explore(
      guide({
        Start: { buttons: [button("Ping", { label: "Jump" }), button("Round one", { label: "Round" })] },
        Ping: { codeBefore: 'GOTO "Pong"', buttons: [button("SUCCESS")] },
        Pong: { codeBefore: 'GOTO "Ping"', buttons: [button("SUCCESS")] },
        "Round one": { buttons: [button("Round two")] },
        "Round two": { buttons: [button("Round one")] },
      }),
    );
    expect(only(r.findings, "endless-loop")).toEqual([
      expect.objectContaining({ page: "Start", where: 'button "Jump"', severity: "error", message: expect.stringContaining("GOTOs that never end") }),
      {
        kind: "endless-loop",
        severity: "error",
        page: "Round one",
        where: "",
        message: 'From here a person only goes round these pages: "Round one", "Round two"; no button leads out of them to an ending.',
      },
    ]);
  });

  test("a variable read before any page can set it", () => {
    const r = explore(
      guide({
        Start: { buttons: [button("Ask")], codeAfter: 'IF [Income NU] > 100<BR/>SET [Rich TF] TO TRUE<BR/>END IF<BR/>IF HASANSWERED([Name TE])<BR/>SET [Named TF] TO TRUE<BR/>END IF' },
        Ask: { fields: [field("number", "Income NU"), field("text", "Name TE")], buttons: [button("Thanks")] },
        Thanks: { text: "<p>Thank you, %%[Name TE]%%.</p>", buttons: [button("SUCCESS")], codeBefore: "IF [Income NU] > 100<BR/>SET [Rich TF] TO TRUE<BR/>END IF" },
      }),
    );
    // HASANSWERED asks whether a variable is blank: that is no fault. Thanks comes after Ask, which sets both.
    expect(only(r.findings, "unset-variable")).toEqual([
      {
        kind: "unset-variable",
        severity: "warning",
        page: "Start",
        where: "codeAfter",
        message: "The script reads [Income NU] before any page can set it: it is blank here.",
      },
    ]);
  });

  test("a pick list without choices, and fields whose limits refuse every answer", () => {
    const r = explore(
      guide({
        Start: {
          fields: [
            field("textpick", "County", { listSrc: "counties.xml" }),
            field("number", "Age NU", { min: "65", max: "18" }),
            field("datemdy", "Due DA", { min: "01/01/2014", max: "01/31/2014", required: false }),
          ],
          buttons: [button("SUCCESS")],
        },
      }),
    );
    expect(only(r.findings, "no-choices")).toEqual([
      {
        kind: "no-choices",
        severity: "error",
        page: "Start",
        where: 'field "County"',
        message: 'The pick list names the list file "counties.xml", which did not come with the guide, so it offers no choices: a person cannot answer it and cannot go on.',
      },
    ]);
    expect(only(r.findings, "impossible-limits")).toEqual([
      expect.objectContaining({ severity: "error", page: "Start", where: 'field "Age NU"', message: "Its smallest number (65) is above its largest (18), so every answer is refused. A person cannot go on." }),
      expect.objectContaining({ severity: "warning", page: "Start", where: 'field "Due DA"', message: "It accepts only dates from 01/01/2014 to 01/31/2014, all in the past: check that these limits are meant." }),
    ]);
    // The refusals are explained by the fields: the page is not reported a second time.
    expect(only(r.findings, "all-refused")).toEqual([]);
  });

  test("a popup and media that are missing", () => {
    const r = explore(
      guide({
        Start: { text: '<p>See <a href="POPUP://Help me">help</a> and <img src="map.png" alt="Map"></p>', helpImageURL: "photo.jpg", buttons: [button("SUCCESS")] },
      }),
      ["photo.jpg"],
    );
    expect(only(r.findings, "missing-popup")).toEqual([
      { kind: "missing-popup", severity: "warning", page: "Start", where: 'popup "Help me"', message: 'A link opens the popup "Help me", which the guide does not have: the link shows nothing.' },
    ]);
    expect(only(r.findings, "missing-media")).toEqual([
      { kind: "missing-media", severity: "warning", page: "Start", where: 'media "map.png"', message: 'The page shows "map.png", which is not among the guide\'s files.' },
    ]);
  });

  test("every choice of a page is tried: each branch of a script is followed", () => {
    const r = explore(
      guide({
        Start: {
          fields: [field("radio", "Kind MC", { value: "rent" }), field("radio", "Kind MC", { value: "buy" }), field("number", "Age NU", { min: "0", max: "120" })],
          buttons: [button("Adult")],
          codeAfter: 'IF [Kind MC] = "buy"<BR/>GOTO "Buying"<BR/>END IF<BR/>IF [Age NU] < 18<BR/>GOTO "Minor"<BR/>END IF',
        },
        Adult: { buttons: [button("SUCCESS")] },
        Buying: { buttons: [button("SUCCESS")] },
        Minor: { buttons: [button("SUCCESS")] },
      }),
    );
    expect(r.findings).toEqual([]);
    expect(r.pagesReached).toBe(4);
  });
});

describe("budget", () => {
  const chain = guide(Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`P${i}`, { buttons: [button(i === 29 ? "SUCCESS" : `P${i + 1}`)] }])));

  test("out of time: the report says the exploration is partial, and what was not reached is not said to be unreachable", () => {
    let asked = 0;
    const explorer = createExplorer(chain, { today: TODAY, shouldStop: () => ++asked > 0 });
    // Each run goes at most its slice of presses; time is asked every 64 presses.
    while (!explorer.run(1));
    const r = explorer.result();
    expect(r.stoppedBy).toBe("time");
    expect(r.complete).toBe(false);
    expect(r.pagesReached).toBeLessThan(30);
    expect(only(r.findings, "unreached")[0]?.message).toBe("The check did not reach this page within its budget.");
  });

  test("out of states", () => {
    const r = exploreGuide(chain, { today: TODAY, maxStates: 10 });
    expect(r).toMatchObject({ stoppedBy: "states", complete: false, states: 10, pagesReached: 11, pagesTotal: 30 });
  });
});

describe("the demo guides", () => {
  const demo = (id: string) => {
    const dir = `db/seed/guides/${id}`;
    const loaded = loadGuideObject(JSON.parse(readFileSync(`${dir}/Guide.json`, "utf8")));
    if (!loaded.ok) throw new Error(loaded.error);
    return exploreGuide(loaded.guide, { today: TODAY, files: new Set(readdirSync(dir)) });
  };

  test.each(["letter-of-demand", "tenancy-deposit", "case-summary"])("%s: every page reached, no finding", (id) => {
    const r = demo(id);
    expect(r.findings).toEqual([]);
    expect(r.complete).toBe(true);
    expect(r.pagesReached).toBe(r.pagesTotal);
    expect(r.outcomes).toContain("ASSEMBLE-SUCCESS");
  });

  test("re-entry-navigator (a real guide, copied unchanged): its one real fault is found", () => {
    const r = demo("re-entry-navigator");
    expect(r.complete).toBe(true);
    // "Yes" and "No" on this page set a variable and go nowhere: A2J's own viewer stays there too.
    expect(r.findings.filter((f) => f.severity === "error")).toEqual([
      expect.objectContaining({ kind: "dead-end", page: "8-Employment (In jail still)" }),
    ]);
    // The returning-user pages need answers from an earlier visit, which a new interview does not have.
    expect(only(r.findings, "unreached").map((f) => f.page)).toEqual(["1-Returning landing page", "4b-Don't know PO info", "2-Conditions of release list", "3-Need basic info first"]);
  });
});
