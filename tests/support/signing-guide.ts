// A guide written for the signing tests (data and e2e; issue 30): one page asking the person's full name, then
// SUCCESS; its one text template carries two signature places, "User signature" (the person's) and "Other parent
// signature" (another signer's), each with its date.
import { button, field, page as questionPage, scenarioGuide } from "./guide-fixtures";

export const SIGNING_GUIDE_ID = "signing-test";
export const SIGNING_ISSUE_ID = 930;

const text = (name: string) => ({ name, type: "Text", repeating: false, comment: "" });

export function signingGuide() {
  const base = scenarioGuide("Joint application", "");
  const page = questionPage("Your name", "<p>What is your full name?</p>", {
    fields: [field("text", "Full name", "Name TE", { required: true })],
    buttons: [button("Finish", "SUCCESS")],
  });
  return {
    ...base,
    title: "Joint application",
    firstPage: "Your name",
    vars: {
      "name te": text("Name TE"),
      "user signature": text("User signature"),
      "user signature date": text("User signature date"),
      "other parent signature": text("Other parent signature"),
      "other parent signature date": text("Other parent signature date"),
    },
    pages: { "Your name": page },
  };
}

export function signingTemplate() {
  const rich = (html: string) => ({ tag: "a2j-rich-text", state: { userContent: html } });
  const v = (name: string) => `<a2j-variable name="${name}"></a2j-variable>`;
  return {
    templateId: 1,
    title: "Joint application",
    active: true,
    rootNode: {
      tag: "a2j-template",
      state: { fontFamily: "times-new-roman", fontSize: "12" },
      children: [
        rich(`<p>We, ${v("Name TE")} and the other parent, apply together.</p>`),
        rich(`<p>Signed: ${v("User signature")} Date: ${v("User signature date")}</p>`),
        rich(`<p>Other parent: ${v("Other parent signature")} Date: ${v("Other parent signature date")}</p>`),
      ],
    },
  };
}

/** The guide's files by path (Guide.json aside), base64, as guide_version_files keeps them. */
export function signingGuideFiles(): { path: string; content_type: string; content: string }[] {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64");
  return [
    { path: "templates.json", content_type: "application/json", content: b64({ guideId: "", templateIds: [1] }) },
    { path: "template1.json", content_type: "application/json", content: b64(signingTemplate()) },
  ];
}
