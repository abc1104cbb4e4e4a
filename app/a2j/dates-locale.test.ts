/**
 * Dates in the person's order, A2J's MM/DD/YYYY inside: the Day/Month/Year boxes, and every place A2J keeps or
 * shows a date (answers, ANX, scripts, macros, validation messages, the page's boxes and progress).
 */
import { describe, expect, test } from "vitest";
import { answersFromJSON, answersToJSON, getRaw } from "./answers";
import { answersFromANX, answersToANX } from "./anx";
import { A2J_DATES, boxesFromStored, type DateLocale, dateLocale, formatDaysFor, MONTH_WORDS, monthFromWord, monthNames, readDateBoxes, showStoredDate, ymdToDays } from "./dates";
import { currentPage, startInterview, submitPage, type InterviewState } from "./flow";
import { loadGuideObject } from "./guide";
import { renderMacros } from "./macros";
import { renderPage } from "./page-view";
import { runScript } from "./script";
import type { Guide } from "./types";

const SINGAPORE: DateLocale = { order: "DMY", style: "long" };
const DMY_NUMERIC: DateLocale = { order: "DMY", style: "numeric" };
const US_LONG: DateLocale = { order: "MDY", style: "long" };
const TODAY = ymdToDays(2024, 3, 15) as number;

/** What the viewer does at its edge: the three boxes → A2J's value. */
function fromBoxes(day: string, month: string, year: string): string {
  const reading = readDateBoxes({ day, month, year });
  if (reading.kind !== "date") throw new Error(JSON.stringify(reading));
  return reading.value;
}

describe("the Day, Month and Year boxes", () => {
  test("13 / 1 / 1990 becomes A2J's 01/13/1990, and the stored date gives the same boxes back", () => {
    expect(fromBoxes("13", "1", "1990")).toBe("01/13/1990");
    expect(fromBoxes(" 03 ", "02", "2024")).toBe("02/03/2024");
    expect(boxesFromStored("01/13/1990")).toEqual({ day: "13", month: "1", year: "1990" });
    expect(boxesFromStored("1/2/2000")).toEqual({ day: "2", month: "1", year: "2000" });
    expect(boxesFromStored("")).toEqual({ day: "", month: "", year: "" });
    expect(boxesFromStored("not a date")).toEqual({ day: "", month: "", year: "" });
  });
  test("every day of 30 years goes boxes → A2J value → boxes unchanged", () => {
    const start = ymdToDays(1990, 1, 1) as number;
    for (let d = start; d < start + 366 * 30; d++) {
      const value = formatDaysFor(d, A2J_DATES);
      const boxes = boxesFromStored(value);
      expect(fromBoxes(boxes.day, boxes.month, boxes.year)).toBe(value);
    }
  });
  test("all blank is no answer; a missing box is named", () => {
    expect(readDateBoxes({ day: "", month: " ", year: "" })).toEqual({ kind: "blank" });
    expect(readDateBoxes({ day: "13", month: "", year: "1990" })).toMatchObject({ kind: "wrong", message: "The date must include a month.", boxes: ["month"] });
    expect(readDateBoxes({ day: "13", month: "", year: "" })).toMatchObject({ kind: "wrong", message: "The date must include a month and year.", boxes: ["month", "year"] });
  });
  test("a wrong box is named, and only that box is marked", () => {
    expect(readDateBoxes({ day: "32", month: "1", year: "1990" })).toMatchObject({ kind: "wrong", message: "The day must be a number from 1 to 31.", boxes: ["day"] });
    expect(readDateBoxes({ day: "x", month: "1", year: "1990" })).toMatchObject({ boxes: ["day"] });
    expect(readDateBoxes({ day: "13", month: "13", year: "1990" })).toMatchObject({ kind: "wrong", message: "The month must be a number from 1 to 12, or its name.", boxes: ["month"] });
    expect(readDateBoxes({ day: "13", month: "1", year: "90" })).toMatchObject({ kind: "wrong", message: "The year must have 4 digits, for example 2007.", boxes: ["year"] });
    expect(readDateBoxes({ day: "29", month: "2", year: "2023" })).toMatchObject({ kind: "wrong", message: "The day must be a real day: February 2023 has 28 days.", boxes: ["day"] });
    expect(readDateBoxes({ day: "31", month: "4", year: "2024" })).toMatchObject({ kind: "wrong", message: "The day must be a real day: April 2024 has 30 days.", boxes: ["day"] });
    expect(fromBoxes("29", "2", "2024")).toBe("02/29/2024");
  });
});

describe("dates shown back in the country's style", () => {
  test("long and numeric, day first or month first", () => {
    const d = ymdToDays(1990, 1, 13) as number;
    expect(formatDaysFor(d, SINGAPORE)).toBe("13 January 1990");
    expect(formatDaysFor(d, DMY_NUMERIC)).toBe("13/01/1990");
    expect(formatDaysFor(d, US_LONG)).toBe("January 13, 1990");
    expect(formatDaysFor(d, A2J_DATES)).toBe("01/13/1990");
    expect(showStoredDate("1/13/1990", SINGAPORE)).toBe("13 January 1990");
    expect(showStoredDate("Not yet", SINGAPORE)).toBe("Not yet");
  });
});

/** An answer as A2J stores it after the person typed 13, 1, 1990 in the boxes. */
function answersWithBirthDate() {
  const read = answersFromJSON(
    JSON.stringify({
      "birth date da": { name: "Birth date DA", type: "Date", repeating: false, values: [null, fromBoxes("13", "1", "1990")] },
      "note te": { name: "Note TE", type: "Text", repeating: false, values: [null, "03/02/2024"] },
      "next day da": { name: "Next day DA", type: "Date", repeating: false, values: [null] },
    }),
  );
  if (!read.ok) throw new Error(read.error);
  return read.value;
}

describe("A2J keeps MM/DD/YYYY inside", () => {
  test("answers (JSON) hold 01/13/1990 and ANX its day/month/year form, both ways", () => {
    const answers = answersWithBirthDate();
    expect(JSON.parse(JSON.stringify(answersToJSON(answers)))["birth date da"].values[1]).toBe("01/13/1990");
    const anx = answersToANX(answers);
    expect(anx).toContain("<DateValue>13/01/1990</DateValue>");
    const back = answersFromANX(anx);
    if (!back.ok) throw new Error(back.error);
    expect(getRaw(back.value, "Birth date DA")).toBe("01/13/1990");
  });
  test("scripts compute on the stored date: arithmetic, DATE(), comparisons, AGE()", () => {
    const answers = answersWithBirthDate();
    const r = runScript(
      'SET [Next day DA] TO [Birth date DA] + 1<BR/>SET [Copy TE] TO DATE([Birth date DA])<BR/>IF [Birth date DA] < TODAY<BR/>SET [Before TF] TO TRUE<BR/>END IF<BR/>SET [Age NU] TO AGE([Birth date DA])',
      { answers, today: TODAY },
    );
    expect(r.errors).toEqual([]);
    expect(getRaw(answers, "Copy TE")).toBe("01/13/1990");
    expect(getRaw(answers, "Next day DA")).toBe("01/14/1990");
    expect(getRaw(answers, "Before TF")).toBe(true);
    expect(getRaw(answers, "Age NU")).toBe(34);
  });
  test("macros in text show a date variable and a bare DATE() the person's way; other text as the guide wrote it", () => {
    const answers = answersWithBirthDate();
    expect(renderMacros("Born %%[Birth date DA]%%.", answers, TODAY, SINGAPORE)).toBe("Born 13 January 1990.");
    expect(renderMacros("%%DATE([Birth date DA] + 1)%%", answers, TODAY, SINGAPORE)).toBe("14 January 1990");
    expect(renderMacros("%%DATE(TODAY)%%", answers, TODAY, DMY_NUMERIC)).toBe("15/03/2024");
    // A Text answer that looks like a date is the person's own words, never re-read.
    expect(renderMacros("%%[Note TE]%%", answers, TODAY, SINGAPORE)).toBe("03/02/2024");
    // Without a country, as A2J shows them.
    expect(renderMacros("%%[Birth date DA]%% %%DATE(TODAY)%%", answers, TODAY)).toBe("01/13/1990 03/15/2024");
  });
});

function datesGuide(): Guide {
  const field = (extra: Record<string, unknown>) => ({ type: "datemdy", name: "Birth date DA", label: "Date of birth (month/day/year)", required: true, ...extra });
  const r = loadGuideObject({
    firstPage: "Born",
    steps: [
      { number: "0", text: "Start" },
      { number: "1", text: "About you" },
      { number: "2", text: "Events" },
      { number: "3", text: "Unused" },
    ],
    vars: {
      "birth date da": { name: "Birth date DA", type: "Date" },
      "event count nu": { name: "Event count NU", type: "Number" },
      "event date da": { name: "Event date DA", type: "Date", repeating: true },
      "event end da": { name: "Event end DA", type: "Date", repeating: true },
      "eventindex": { name: "EventIndex", type: "Number" },
    },
    pages: {
      Born: {
        name: "Born",
        step: 1,
        text: "<p>When were you born?</p>",
        fields: [field({ max: "TODAY" })],
        buttons: [{ label: "Continue", next: "How many" }],
      },
      "How many": {
        name: "How many",
        step: 2,
        text: "<p>How many events? You were born on %%[Birth date DA]%%.</p>",
        fields: [{ type: "number", name: "Event count NU", label: "Events", required: true }],
        buttons: [{ label: "Continue", next: "Event", repeatVar: "EventIndex", repeatVarSet: "=1" }],
      },
      Event: {
        name: "Event",
        step: 2,
        repeatVar: "EventIndex",
        text: "<p>An event</p>",
        fields: [
          { type: "datemdy", name: "Event date DA", label: "Date (mm/dd/yyyy)", required: true },
          { type: "datemdy", name: "Event end DA", label: "Date it ended (optional, month/day/year)" },
        ],
        buttons: [{ label: "Next", next: "Event", repeatVar: "EventIndex", repeatVarSet: "+=1" }],
      },
    },
  });
  if (!r.ok) throw new Error(r.error);
  return r.guide;
}

function press(guide: Guide, state: InterviewState, values: Record<string, string>, dates: DateLocale = SINGAPORE) {
  const r = submitPage(guide, state, { pageName: currentPage(state) ?? "", buttonIndex: 0, values }, TODAY, { dates });
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

describe("the page's date field, messages and progress", () => {
  test("the field's boxes come from the stored date; its label loses a month/day/year hint the boxes replace", () => {
    const g = datesGuide();
    const started = startInterview(g, TODAY);
    if (!started.ok) throw new Error(started.error.message);
    const first = renderPage(g, started.state, TODAY, { dates: SINGAPORE })!;
    expect(first.fields[0]).toMatchObject({ label: "Date of birth", date: { day: "", month: "", year: "" }, errorBoxes: [] });
    expect(first.dates).toEqual(SINGAPORE);
    // Step 1 of the two steps the pages use (the guide's unused steps do not count).
    expect(first.progress).toEqual({ step: { number: 1, of: 2 }, entry: null });

    // A date after today is refused with the bound written the person's way, and every box is marked.
    const late = press(g, started.state, { "birth date da": fromBoxes("1", "4", "2024") });
    expect(late.outcome).toMatchObject({ kind: "invalid", errors: [{ message: "Please enter a date on or before 15 March 2024." }] });
    const shown = renderPage(g, late.state, TODAY, { dates: SINGAPORE, submitted: { "birth date da": "04/01/2024" }, errors: late.outcome.kind === "invalid" ? late.outcome.errors : [] })!;
    expect(shown.fields[0]).toMatchObject({ date: { day: "1", month: "4", year: "2024" }, errorBoxes: ["day", "month", "year"] });

    const next = press(g, started.state, { "birth date da": fromBoxes("13", "1", "1990") });
    expect(getRaw(next.state.answers, "Birth date DA")).toBe("01/13/1990");
    const page = renderPage(g, next.state, TODAY, { dates: SINGAPORE })!;
    expect(page.text).toContain("You were born on 13 January 1990.");
    expect(renderPage(g, next.state, TODAY)!.text).toContain("You were born on 01/13/1990.");
  });

  test("a loop's entry is named after its counter", () => {
    const entryOf = (counter: string) => {
      const g = datesGuide();
      g.pages["Event"]!.repeatVar = counter;
      const started = startInterview(g, TODAY);
      if (!started.ok) throw new Error(started.error.message);
      const state = { ...started.state, history: [{ interviewPage: "Event", repeatVarValue: 2, outerLoopVarValue: null }] };
      return renderPage(g, state, TODAY)!.progress.entry?.noun;
    };
    expect(["EventIndex", "Child count", "child_number", "Casino", "Index"].map(entryOf)).toEqual(["Event", "Child", "Child", "Casino", "Entry"]);
  });

  test("a loop's pages say which entry, with the count when the guide holds one", () => {
    const g = datesGuide();
    let state = startInterview(g, TODAY);
    if (!state.ok) throw new Error(state.error.message);
    let s = press(g, state.state, { "birth date da": "01/13/1990" }).state;
    s = press(g, s, { "event count nu": "3" }).state;
    expect(renderPage(g, s, TODAY)!.progress).toEqual({ step: { number: 2, of: 2 }, entry: { noun: "Event", number: 1, of: 3 } });
    const event = renderPage(g, s, TODAY, { dates: SINGAPORE })!;
    expect(event.fields.map((f) => f.label)).toEqual(["Date", "Date it ended (optional)"]);
    s = press(g, s, { "event date da": fromBoxes("2", "3", "2024") }).state;
    expect(renderPage(g, s, TODAY)!.progress.entry).toEqual({ noun: "Event", number: 2, of: 3 });
    expect(getRaw(s.answers, "Event date DA", 1)).toBe("03/02/2024");
    s = press(g, s, { "event date da": "03/03/2024" }).state;
    s = press(g, s, { "event date da": "03/04/2024" }).state;
    // Past the count the guide gave: the entry is still numbered, without a total it no longer has.
    expect(renderPage(g, s, TODAY)!.progress.entry).toEqual({ noun: "Event", number: 4, of: null });
  });
});

describe("month names in the Month box", () => {
  test.each([
    ["March", 3],
    ["march", 3],
    ["Mar", 3],
    ["Mar.", 3],
    ["SEPT", 9],
    ["sep", 9],
    ["December", 12],
    ["3", 3],
    ["03", 3],
  ])("%j is month %i", (month, number) => {
    expect(readDateBoxes({ day: "4", month, year: "2023" })).toEqual({ kind: "date", value: `${String(number).padStart(2, "0")}/04/2023` });
  });
  test.each([["Ma"], ["Marchx"], ["Juni"], ["13"], ["M4"]])("%j is refused, naming the Month box", (month) => {
    expect(readDateBoxes({ day: "4", month, year: "2023" })).toMatchObject({ kind: "wrong", message: "The month must be a number from 1 to 12, or its name.", boxes: ["month"] });
  });
  test("the names are kept by language", () => {
    expect(MONTH_WORDS.en).toHaveLength(12);
    expect(monthFromWord("Jun", "en")).toBe(6);
    expect(monthFromWord("Ju", "en")).toBeNull();
  });
});

describe("dates in the guide's language", () => {
  const day = ymdToDays(1990, 1, 13)!;
  test("writes a long date as the language does, with Latin digits; numbers and English as before", () => {
    expect(formatDaysFor(day, { order: "DMY", style: "long", language: "fr" })).toBe("13 janvier 1990");
    expect(formatDaysFor(day, { order: "DMY", style: "long", language: "zh-Hans" })).toBe("1990年1月13日");
    expect(formatDaysFor(day, { order: "DMY", style: "long", language: "ar" })).toBe("13 يناير 1990");
    expect(formatDaysFor(day, { order: "MDY", style: "long", language: "en" })).toBe("January 13, 1990");
    expect(formatDaysFor(day, { order: "DMY", style: "long" })).toBe("13 January 1990");
    expect(formatDaysFor(day, { order: "DMY", style: "numeric", language: "fr" })).toBe("13/01/1990");
    // A tag Intl cannot read: English words, never an error.
    expect(formatDaysFor(day, { order: "DMY", style: "long", language: "not a tag!" })).toBe("13 January 1990");
    expect(showStoredDate("1/13/1990", { order: "DMY", style: "long", language: "es" })).toBe("13 de enero de 1990");
  });

  test("reads a month typed in the language's words", () => {
    expect(monthFromWord("janvier", "fr")).toBe(1);
    expect(monthFromWord("févr", "fr")).toBe(2);
    expect(monthFromWord("Ionawr", "cy")).toBe(1);
    expect(monthFromWord("March", "fr")).toBeNull();
    expect(monthNames("en")[2]).toBe("March");
    expect(readDateBoxes({ day: "13", month: "janvier", year: "1990" }, "fr")).toMatchObject({ kind: "date", value: "01/13/1990" });
  });

  test("writes Arabic dates with Arabic digits when the country chooses them, and reads them typed", () => {
    expect(dateLocale("DMY", "long", "native")).toEqual({ order: "DMY", style: "long", digits: "native" });
    expect(dateLocale("DMY", "long", "latin")).toEqual({ order: "DMY", style: "long" });
    expect(formatDaysFor(day, { order: "DMY", style: "long", language: "ar", digits: "native" })).toBe("١٣ يناير ١٩٩٠");
    expect(formatDaysFor(day, { order: "DMY", style: "numeric", language: "ar", digits: "native" })).toBe("١٣/٠١/١٩٩٠");
    // Intl's Arabic for Morocco writes Latin digits by default: the country's choice holds.
    expect(formatDaysFor(day, { order: "DMY", style: "long", language: "ar-MA", digits: "native" })).toBe("١٣ يناير ١٩٩٠");
    // A language without digits of its own, and English, keep Latin ones.
    expect(formatDaysFor(day, { order: "DMY", style: "long", language: "fr", digits: "native" })).toBe("13 janvier 1990");
    expect(formatDaysFor(day, { order: "DMY", style: "long", language: "en", digits: "native" })).toBe("13 January 1990");
    expect(readDateBoxes({ day: "١٣", month: "١", year: "١٩٩٠" }, "ar")).toMatchObject({ kind: "date", value: "01/13/1990" });
  });
});
