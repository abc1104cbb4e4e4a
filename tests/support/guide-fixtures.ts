// Small guides written for the guide upload tests (data and e2e): a two-page interview whose pages say which
// version they are, and, when asked, one of each kind of problem the import report names.
import { readFileSync } from "node:fs";
import { zipSync } from "fflate";

export const page = (name: string, text: string, extra: Record<string, unknown> = {}) => ({
  name,
  type: "A2J",
  step: 0,
  repeatVar: "",
  nested: false,
  outerLoopVar: "",
  text,
  learn: "",
  help: "",
  fields: [],
  buttons: [],
  codeBefore: "",
  codeAfter: "",
  notes: "",
  ...extra,
});

export const field = (type: string, label: string, name: string, extra: Record<string, unknown> = {}) => ({
  type,
  label,
  name,
  value: "",
  required: false,
  order: "",
  min: "",
  max: "",
  maxChars: "",
  calculator: false,
  listSrc: "",
  listData: "",
  sample: "",
  invalidPrompt: "",
  ...extra,
});

export const button = (label: string, next: string) => ({ label, next, url: "", message: "", name: "", value: "", repeatVar: "", repeatVarSet: "" });

/**
 * A Guide.json: "Your name" (first name), then "Thank you" saying `Version {version}`, then SUCCESS. With
 * `problems`, its scripts hold an error and an unknown function and a question names a missing pick list.
 */
export function versionedGuide(title: string, version: number, problems = false) {
  const name = page("Your name", `<p>Version ${version}: what is your name?</p>`, {
    fields: [
      field("text", "First name", "First name TE", { required: true }),
      ...(problems ? [field("textpick", "County", "County TE", { listSrc: "counties.xml" })] : []),
    ],
    buttons: [button("Continue", "Thank you")],
    codeBefore: problems ? "SET [First name TE] TO" : "",
    codeAfter: problems ? "SET [County TE] TO SHOUT([First name TE])" : "",
  });
  const thanks = page("Thank you", `<p>Version ${version}: thank you, %%[First name TE]%%.</p>`, { buttons: [button("Finish", "SUCCESS")] });
  return {
    tool: "A2J",
    toolversion: "2012-04-19",
    viewer: "A2J",
    title,
    description: "Written for the guide upload tests.",
    jurisdiction: "",
    subjectarea: "",
    language: "en",
    version: String(version),
    avatar: "",
    guideGender: "",
    authors: [],
    firstPage: "Your name",
    exitPage: "",
    steps: [{ number: "1", text: "About you" }],
    vars: {
      "first name te": { name: "First name TE", type: "Text", repeating: false, comment: "" },
      ...(problems ? { "county te": { name: "County TE", type: "Text", repeating: false, comment: "" } } : {}),
    },
    pages: { "Your name": name, "Thank you": thanks },
  };
}

/** Over the media limit (1 MB), and compressible, so the zip stays small. */
export const LARGE_MEDIA_BYTES = 1024 * 1024 + 200 * 1024;

/**
 * A published guide zip (one top folder, as A2J Author publishes), the files of `versionedGuide`; with
 * `problems`, also a templates.json naming a template that is not there and a video over the media limit.
 */
export function versionedGuideZip(title: string, version: number, problems = false): Uint8Array {
  const encode = (text: string) => new TextEncoder().encode(text);
  const files: Record<string, Uint8Array> = { "Guide.json": encode(JSON.stringify(versionedGuide(title, version, problems))) };
  if (problems) {
    files["templates.json"] = encode(JSON.stringify({ guideId: "", templateIds: [1, 2] }));
    files["template1.json"] = readFileSync("db/seed/guides/letter-of-demand/template1.json");
    files["welcome.mp4"] = new Uint8Array(LARGE_MEDIA_BYTES);
  }
  return zipSync(Object.fromEntries(Object.entries(files).map(([file, bytes]) => [`my-guide/${file}`, bytes])));
}

/**
 * A guide written for the health check and the test scenarios (issue 32): "Your name" asks a name and what is
 * needed; a letter leads to "Letter" (an amount) and the document; with `problems`, "advice" leads to a question
 * whose pick list file never came ("Advice") and "visit" to a page with no button ("Opening hours"). The letter's
 * last line is `letterLine`, so two versions can differ in their document's text.
 */
export function scenarioGuide(title: string, letterLine: string, problems = false) {
  const needs = [field("radio", "A letter of demand", "Need MC", { value: "letter", required: true })];
  if (problems) {
    needs.push(field("radio", "Advice from a lawyer", "Need MC", { value: "advice", required: true }));
    needs.push(field("radio", "Visit the office", "Need MC", { value: "visit", required: true }));
  }
  const pages: Record<string, unknown> = {
    "Your name": page("Your name", "<p>What is your name, and what do you need?</p>", {
      fields: [field("text", "First name", "First name TE", { required: true }), ...needs],
      buttons: [button("Continue", "Letter")],
      codeAfter: problems ? 'IF [Need MC] = "advice"<BR/>GOTO "Advice"<BR/>END IF<BR/>IF [Need MC] = "visit"<BR/>GOTO "Opening hours"<BR/>END IF' : "",
    }),
    Letter: page("Letter", "<p>How much are you owed, %%[First name TE]%%?</p>", {
      fields: [field("number", "Amount in dollars", "Amount NU", { required: true, min: "1" })],
      buttons: [button("Make my letter", "ASSEMBLE-SUCCESS")],
    }),
  };
  if (problems) {
    pages.Advice = page("Advice", "<p>Which county do you live in?</p>", {
      fields: [field("textpick", "County", "County TE", { required: true, listSrc: "counties.xml" })],
      buttons: [button("Continue", "Letter")],
    });
    pages["Opening hours"] = page("Opening hours", "<p>Our office opens on weekdays.</p>");
  }
  const vars: Record<string, unknown> = {
    "first name te": { name: "First name TE", type: "Text", repeating: false, comment: "" },
    "need mc": { name: "Need MC", type: "MC", repeating: false, comment: "" },
    "amount nu": { name: "Amount NU", type: "Number", repeating: false, comment: "" },
    ...(problems ? { "county te": { name: "County TE", type: "MC", repeating: false, comment: "" } } : {}),
  };
  return { ...versionedGuide(title, 1), title, firstPage: "Your name", vars, pages };
}

/** Its one document: a text template whose last line is `letterLine`. */
export function scenarioTemplate(letterLine: string) {
  const rich = (html: string) => ({ tag: "a2j-rich-text", state: { userContent: html } });
  return {
    templateId: 1,
    title: "Letter of demand",
    active: true,
    rootNode: {
      tag: "a2j-template",
      state: { fontFamily: "times-new-roman", fontSize: "12" },
      children: [
        rich("<p>Dear Sir or Madam,</p>"),
        rich('<p>I, <a2j-variable name="First name TE"></a2j-variable>, ask you to pay <a2j-variable name="Amount NU"></a2j-variable> dollars.</p>'),
        rich(`<p>${letterLine}</p>`),
      ],
    },
  };
}

/** The files of `scenarioGuide` with its template, by path. */
export function scenarioGuideFiles(title: string, letterLine: string, problems = false): Record<string, Uint8Array> {
  const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
  return {
    "Guide.json": encode(scenarioGuide(title, letterLine, problems)),
    "templates.json": encode({ guideId: "", templateIds: [1] }),
    "template1.json": encode(scenarioTemplate(letterLine)),
  };
}

/** The same as a published zip (one top folder). */
export function scenarioGuideZip(title: string, letterLine: string, problems = false): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(scenarioGuideFiles(title, letterLine, problems)).map(([file, bytes]) => [`scenario-guide/${file}`, bytes])));
}

/** Answers of someone who asks for a letter: A2J's JSON form (Ada, 250 dollars). */
export const LETTER_ANSWERS_JSON = JSON.stringify({
  "first name te": { name: "First name TE", type: "Text", repeating: false, values: [null, "Ada"] },
  "need mc": { name: "Need MC", type: "MC", repeating: false, values: [null, "letter"] },
  "amount nu": { name: "Amount NU", type: "Number", repeating: false, values: [null, 250] },
});

/** The same answers, for Grace and 90 dollars, as an ANX answer file. */
export const LETTER_ANSWERS_ANX = `<?xml version="1.0" encoding="UTF-8"?>
<AnswerSet title="Scenario test">
<Answer name="First name TE"><TextValue>Grace</TextValue></Answer>
<Answer name="Need MC"><MCValue><SelValue>letter</SelValue></MCValue></Answer>
<Answer name="Amount NU"><NumValue>90</NumValue></Answer>
</AnswerSet>`;
