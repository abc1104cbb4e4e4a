// Small guides written for the guide upload tests (data and e2e): a two-page interview whose pages say which
// version they are, and, when asked, one of each kind of problem the import report names.
import { readFileSync } from "node:fs";
import { zipSync } from "fflate";

const page = (name: string, text: string, extra: Record<string, unknown> = {}) => ({
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

const field = (type: string, label: string, name: string, extra: Record<string, unknown> = {}) => ({
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

const button = (label: string, next: string) => ({ label, next, url: "", message: "", name: "", value: "", repeatVar: "", repeatVarSet: "" });

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
