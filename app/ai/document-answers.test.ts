import { describe, expect, it } from "vitest";
import type { Field, Page } from "~/a2j";
import { checkProposals, documentMessages, proposableFields } from "./document-answers";

const field = (type: Field["type"], name: string, label: string, extra: Partial<Field> = {}): Field => ({
  type, name, label, value: "", required: false, order: "", min: "", max: "", maxChars: "", calculator: false, listSrc: "", listData: "", sample: "", invalidPrompt: "", ...extra,
});
const page = {
  name: "Letter details",
  fields: [
    field("text", "Landlord name TE", "<p>Your landlord's name</p>"),
    field("numberdollar", "Bond amount NU", "Bond amount"),
    field("datemdy", "Notice date DA", "Date of the letter"),
    field("radio", "Bond lodged MC", "Yes", { value: "Yes" }),
    field("radio", "Bond lodged MC", "No", { value: "No" }),
    field("textpick", "State MC", "State", { listData: '<option value="NSW">New South Wales</option><option value="VIC">Victoria</option>' }),
    field("checkbox", "Received TF", "I received the letter"),
    field("attachment", "Letter file", "Upload it"),
  ],
} as unknown as Page;
const labelOf = (f: Field) => f.label.replace(/<[^>]+>/g, "");
const fields = proposableFields(page, labelOf);
const letter = "Dear tenant,\nI, John Smith, will keep $1,200.00 of your bond.\nDated 3 March 2025. The bond was lodged with the authority in New South Wales.";

describe("proposableFields", () => {
  it("lists one question per variable, a radio group with its options, pick lists with theirs, and no files", () => {
    expect(fields.map((f) => [f.name, f.kind])).toEqual([
      ["landlord name te", "text"],
      ["bond amount nu", "number"],
      ["notice date da", "date"],
      ["bond lodged mc", "choice"],
      ["state mc", "choice"],
      ["received tf", "yes-no"],
    ]);
    expect(fields[0]!.label).toBe("Your landlord's name");
    expect(fields[3]!.choices.map((c) => c.value)).toEqual(["Yes", "No"]);
    expect(fields[4]!.choices).toEqual([{ value: "NSW", label: "New South Wales" }, { value: "VIC", label: "Victoria" }]);
  });

  it("tells the model each question's id and the form of its answer", () => {
    const [system, user] = documentMessages(letter, "About the letter", fields, true);
    expect(system!.content).toContain('- "bond amount nu": Bond amount (a number, digits only)');
    expect(system!.content).toContain('- "state mc": State (one of: "NSW" (New South Wales), "VIC" (Victoria))');
    expect(system!.content).toContain("YYYY-MM-DD");
    expect(user!.content).toContain("The document:\nDear tenant,");
  });
});

describe("checkProposals", () => {
  it("keeps proposals whose value fits the question and whose quote is in the document", () => {
    const answer = {
      answers: [
        { field: "Landlord name TE", value: "[NAME_1]", quote: "I, [NAME_1], will keep" },
        { field: "bond amount nu", value: "$1,200.00", quote: "will keep $1,200.00 of your   bond." },
        { field: "notice date da", value: "2025-03-03", quote: "Dated 3 March 2025." },
        { field: "state mc", value: "New South Wales", quote: "lodged with the authority in New South Wales" },
        { field: "bond lodged mc", value: "yes", quote: "The bond was lodged" },
      ],
    };
    const restore = (text: string) => text.replace("[NAME_1]", "John Smith");
    expect(checkProposals(JSON.stringify(answer), fields, letter, restore)).toEqual({
      ok: true,
      dropped: 0,
      proposals: [
        { name: "landlord name te", value: "John Smith", quote: "I, John Smith, will keep" },
        { name: "bond amount nu", value: "1200", quote: "will keep $1,200.00 of your bond." },
        { name: "notice date da", value: "2025-03-03", quote: "Dated 3 March 2025." },
        { name: "state mc", value: "NSW", quote: "lodged with the authority in New South Wales" },
        { name: "bond lodged mc", value: "Yes", quote: "The bond was lodged" },
      ],
    });
  });

  it("drops a question the page does not have, a value that does not fit, a made-up quote, and a second answer to one question", () => {
    const answer = {
      answers: [
        { field: "tenant phone", value: "0412 345 678", quote: "Dear tenant" },
        { field: "bond amount nu", value: "about twelve hundred", quote: "$1,200.00" },
        { field: "notice date da", value: "03/03/2025", quote: "Dated 3 March 2025." },
        { field: "state mc", value: "Queensland", quote: "New South Wales" },
        { field: "landlord name te", value: "Jane Doe", quote: "Jane Doe is the landlord" },
        { field: "received tf", value: true, quote: "Dear tenant" },
        { field: "received tf", value: false, quote: "Dear tenant" },
      ],
    };
    expect(checkProposals(JSON.stringify(answer), fields, letter)).toEqual({
      ok: true,
      dropped: 6,
      proposals: [{ name: "received tf", value: "true", quote: "Dear tenant" }],
    });
  });

  it("refuses prose and an answer with nothing left", () => {
    expect(checkProposals("The landlord is John.", fields, letter)).toMatchObject({ ok: false, reason: "malformed" });
    expect(checkProposals('{"answers":[]}', fields, letter)).toMatchObject({ ok: false, reason: "none" });
    expect(checkProposals('{"answers":[{"field":"x","value":"y","quote":"z"}]}', fields, letter)).toMatchObject({ ok: false, reason: "none", dropped: 1 });
  });
});
