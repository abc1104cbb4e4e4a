import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DEFAULT_PROMPTS, type DateLocale, type FieldError, type Guide, loadGuideObject, renderPage, startInterview, validatePage } from "~/a2j";
import { translator } from "~/i18n/translator";
import { ViewerContent } from "./viewer-document";
import { ErrorSummary } from "~/ui/form";
import { ViewerPageView, viewerMessage } from "./viewer-page";

const TODAY = 19797;

function guideWith(fields: unknown[], pageExtra: Record<string, unknown> = {}): Guide {
  const r = loadGuideObject({
    firstPage: "P",
    steps: [{ number: "0", text: "Start" }, { number: "1", text: "About you" }],
    pages: {
      P: { name: "P", step: 1, text: "<p>Tell us</p>", fields, buttons: [{ label: "Continue", next: "Q" }], ...pageExtra },
      Q: { name: "Q", step: 0, text: "<p>Next</p>" },
    },
  });
  if (!r.ok) throw new Error(r.error);
  return r.guide;
}

/** The viewer page's HTML as the server sends it, parsed so that it can be read like a browser would. */
function rendered(guide: Guide, dates?: DateLocale, errors: FieldError[] = [], preview = false) {
  const started = startInterview(guide, TODAY);
  if (!started.ok) throw new Error(started.error.message);
  const page = renderPage(guide, started.state, TODAY, { dates, errors })!;
  return renderToStaticMarkup(
    <ViewerPageView page={page} title="Guide" action="/viewer" preview={preview} interviewId={null} saved={false} previewState={null} rephrasable={[]} documentTitle="Guide" />,
  );
}

/** The attributes of the input whose id is given, names lower-cased (HTML ignores their case; React writes autoComplete). */
function element(html: string, id: string): Record<string, string> {
  const tag = new RegExp(`<(input|textarea)\\b[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  if (!tag) throw new Error(`no element #${id} in ${html}`);
  return Object.fromEntries([...tag.matchAll(/([a-zA-Z-]+)="([^"]*)"/g)].map((m) => [m[1]!.toLowerCase(), m[2]!]));
}

describe("fields that fit the answer", () => {
  it("phone, zip, number, money and text with a limit ask the browser for the right keyboard and autofill", () => {
    const html = rendered(
      guideWith([
        { type: "numberphone", name: "Phone TE", label: "Phone" },
        { type: "numberzip", name: "Zip TE", label: "Postcode" },
        { type: "number", name: "Count NU", label: "How many" },
        { type: "numberdollar", name: "Amount NU", label: "Amount" },
        { type: "text", name: "Name TE", label: "Name", maxChars: "60" },
        { type: "textlong", name: "Story TE", label: "Story", maxChars: "800" },
        { type: "text", name: "Free TE", label: "Free" },
      ]),
    );
    expect(element(html, "field-0")).toMatchObject({ type: "tel", autocomplete: "tel" });
    expect(element(html, "field-1")).toMatchObject({ type: "text", autocomplete: "postal-code", inputmode: "numeric" });
    expect(element(html, "field-2")).toMatchObject({ inputmode: "decimal" });
    expect(element(html, "field-3")).toMatchObject({ inputmode: "decimal" });
    expect(element(html, "field-4")).toMatchObject({ maxlength: "60" });
    expect(element(html, "field-5")).toMatchObject({ maxlength: "800" });
    expect(element(html, "field-6").maxlength).toBeUndefined();
  });
});

describe("a date as Day, Month and Year boxes", () => {
  const dateGuide = () => guideWith([{ type: "datemdy", name: "Birth date DA", label: "Date of birth (month/day/year)", required: true }]);

  it("one fieldset whose legend is the question, a hint, and numeric boxes in the country's order", () => {
    const html = rendered(dateGuide(), { order: "DMY", style: "long" });
    expect(html).toMatch(/<fieldset class="field fieldset date-input" aria-describedby="field-0-hint"><legend class="fieldset__legend"><span>Date of birth<\/span><span class="field__required"> \(required\)<\/span><\/legend>/);
    expect(html).toContain('<p class="field__hint" id="field-0-hint">For example, 27 3 2007</p>');
    expect([...html.matchAll(/<label class="field__label" for="([^"]+)">(\w+)<\/label>/g)].map((m) => [m[1], m[2]])).toEqual([
      ["field-0", "Day"],
      ["field-0-month", "Month"],
      ["field-0-year", "Year"],
    ]);
    expect(element(html, "field-0")).toMatchObject({ name: "birth date da-day", inputmode: "numeric", maxlength: "2", autocomplete: "bday-day" });
    expect(element(html, "field-0-year")).toMatchObject({ name: "birth date da-year", maxlength: "4" });
  });

  it("a US issue keeps month/day/year", () => {
    const html = rendered(dateGuide());
    expect([...html.matchAll(/<label class="field__label" for="[^"]+">(\w+)<\/label>/g)].map((m) => m[1])).toEqual(["Month", "Day", "Year"]);
    expect(html).toContain("For example, 3 27 2007");
  });

  it("an error marks only the box it is about, and the summary leads to that box", () => {
    const html = rendered(dateGuide(), { order: "DMY", style: "long" }, [{ fieldIndex: 0, inputName: "birth date da", message: "The month must be a number from 1 to 12.", boxes: ["month"] }]);
    expect(html).toContain('<a href="#field-0">Date of birth: The month must be a number from 1 to 12.</a>');
    expect(element(html, "field-0")).toMatchObject({ name: "birth date da-month", "aria-invalid": "true" });
    expect(element(html, "field-0-day")["aria-invalid"]).toBeUndefined();
    expect(element(html, "field-0-year")["aria-invalid"]).toBeUndefined();
    expect(html).toContain('aria-describedby="field-0-hint field-0-error"');
  });
});

describe("progress", () => {
  it("says the step among the guide's steps, and the loop's entry", () => {
    const html = rendered(guideWith([{ type: "text", name: "Name TE", label: "Name" }], { repeatVar: "ChildIndex" }));
    expect(html).toContain('<p class="viewer__step">Step 2 of 2: About you – Child 1</p>');
  });
});

describe("a pick list whose choices did not come with the guide", () => {
  const guide = guideWith([
    { type: "textpick", name: "County MC", label: "County", listSrc: "counties.xml", required: true },
    { type: "textpick", name: "Color MC", label: "Colour", listData: "<option>Red</option>" },
  ]);
  const message = DEFAULT_PROMPTS.noChoices;

  it("offers no box to type in and says plainly that the question cannot be answered yet", () => {
    const html = rendered(guide);
    expect(html).not.toMatch(/name="county mc"/);
    expect(html).toMatch(/<select[^>]*name="color mc"/);
    expect(html).toContain(message);
    expect(html).not.toContain("For the guide&#x27;s author");
  });

  it("shows the message once when the person tried to go on, and the preview names the missing file for the author", () => {
    const html = rendered(guide, undefined, [{ fieldIndex: 0, inputName: "county mc", message }]);
    expect(html.split(message)).toHaveLength(3); // the error summary and the field
    expect(html).toContain('id="field-0"');
    const preview = rendered(guide, undefined, [], true);
    expect(preview).toContain("For the guide&#x27;s author: the pick list file &quot;counties.xml&quot; is not among the guide&#x27;s files. Add it to the guide and import it again.");
  });
});

describe("the viewer's error summary", () => {
  it("names each field: a text field by its label, a choice by the question it answers", () => {
    const guide = guideWith([
      { type: "text", name: "Name TE", label: "<b>Your</b> name", required: true },
      { type: "radio", name: "Pet MC", label: "Cat", value: "cat", required: true },
      { type: "radio", name: "Pet MC", label: "Dog", value: "dog", required: true },
    ]);
    const html = rendered(guide, undefined, [
      { fieldIndex: 0, inputName: "Name TE", message: "Please answer this." },
      { fieldIndex: 1, inputName: "Pet MC", message: "Please choose one." },
    ]);
    expect(html).toContain('<a href="#field-0">Your name: Please answer this.</a>');
    expect(html).toContain('<a href="#field-1">Tell us: Please choose one.</a>');
    // Under the field, the guide's own message, unchanged.
    expect(html).toContain('id="field-0-error">Please answer this.</p>');
    // The summary every form has (app/ui/form.tsx), marked for the viewer's script (public/scripts/viewer.js).
    const summary = renderToStaticMarkup(
      <ErrorSummary
        errors={[
          { fieldId: "field-0", label: "Your name", message: "Please answer this." },
          { fieldId: "field-1", label: "Tell us", message: "Please choose one." },
        ]}
      />,
    );
    expect(html).toContain(summary);
    expect(summary).toMatch(/^<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus="" data-error-summary="">/);
  });
});

// Issue 29, part 5: a field with limits says them before anyone errs, and a value outside them gets the
// author's prompt and the reason.
describe("limits people can meet", () => {
  const PROMPT = "You must enter a month, day and year in the highlighted spaces";
  const limited = () =>
    guideWith([
      { type: "datemdy", name: "Hearing DA", label: "Date of the hearing", min: "12/01/2014", max: "12/31/2014", invalidPrompt: PROMPT },
      { type: "number", name: "Children NU", label: "How many children", min: "1", max: "10" },
      { type: "numberdollar", name: "Rent NU", label: "Rent", min: "0.5" },
      { type: "datemdy", name: "Since DA", label: "Since when", max: "TODAY" },
      { type: "number", name: "Free NU", label: "Any number" },
    ]);
  const british = { order: "DMY", style: "long", language: "en" } as const;

  it("each field's hint says its limits, in the country's style, and the field is described by it", () => {
    const html = rendered(limited(), british);
    expect(html).toContain('<p class="field__hint" id="field-0-limits">A date between 1 December 2014 and 31 December 2014</p><p class="field__hint" id="field-0-hint">For example, 27 3 2007</p>');
    expect(html).toContain('<fieldset class="field fieldset date-input" aria-describedby="field-0-limits field-0-hint">');
    expect(html).toContain('<p class="field__hint" id="field-1-limits">A number from 1 to 10</p>');
    expect(element(html, "field-1")["aria-describedby"]).toBe("field-1-limits");
    expect(html).toContain('<p class="field__hint" id="field-2-limits">A number of at least 0.5</p>');
    expect(element(html, "field-2")["aria-describedby"]).toBe("field-2-limits field-2-hint");
    // TODAY is today's date (TODAY = 19797 days: 15 March 2024).
    expect(html).toContain('<p class="field__hint" id="field-3-limits">A date on or before 15 March 2024</p>');
    expect(html).not.toContain("field-4-limits");
    expect(element(html, "field-4")["aria-describedby"]).toBeUndefined();
    // A2J's own way, outside any country: MM/DD/YYYY.
    expect(rendered(limited())).toContain(">A date between 12/01/2014 and 12/31/2014</p>");
  });

  it("a date outside them: the author's prompt, then the reason, under the field and in the summary", () => {
    const guide = limited();
    const { errors } = validatePage(guide.pages.P!, { "hearing da": "01/13/1990", "children nu": "11" }, TODAY, british);
    const html = rendered(guide, british, errors);
    const dateError = `${PROMPT} Please enter a date between 1 December 2014 and 31 December 2014.`;
    expect(html).toContain(`<p class="field__error" id="field-0-error">${dateError}</p>`);
    expect(html).toContain(`<a href="#field-0">Date of the hearing: ${dateError}</a>`);
    expect(html).toContain('aria-describedby="field-0-limits field-0-hint field-0-error"');
    expect(html).toContain('<p class="field__error" id="field-1-error">Please enter a number between 1 and 10.</p>');
    expect(element(html, "field-1")["aria-describedby"]).toBe("field-1-limits field-1-error");
  });

  it("in French: the dates in French, the numbers with a decimal comma", () => {
    const guide = limited();
    const { errors } = validatePage(guide.pages.P!, { "hearing da": "01/13/1990", "rent nu": "0.25" }, TODAY, { ...british, language: "fr" });
    const started = startInterview(guide, TODAY);
    if (!started.ok) throw new Error(started.error.message);
    const page = renderPage(guide, started.state, TODAY, { dates: { ...british, language: "fr" }, errors })!;
    const props = { page, title: "Guide", documentTitle: "Guide", action: "/viewer", preview: false, interviewId: null, saved: false, previewState: null, rephrasable: [], language: "fr" };
    const html = renderToStaticMarkup(<ViewerContent view={props} />);
    expect(html).toContain(">Une date entre le 1 décembre 2014 et le 31 décembre 2014</p>");
    expect(html).toContain(">Un nombre de 1 à 10</p>");
    expect(html).toContain(">Un nombre d’au moins 0,5</p>");
    expect(html).toContain(`${PROMPT} Veuillez entrer une date entre le 1 décembre 2014 et le 31 décembre 2014.</p>`);
    expect(html).toContain(">Veuillez entrer un nombre d’au moins 0,5.</p>");
  });

  it("in Chinese the reason follows the prompt without a space, as Chinese writes sentences", () => {
    const t = translator("zh-Hans");
    expect(viewerMessage(t, "请填写日期。", null, { id: "dateFrom", values: { min: "2014年12月1日", max: "" } })).toBe("请填写日期。请输入 2014年12月1日 当天或之后的日期。");
  });
});
