import { describe, expect, test } from "vitest";
import { dateLocale, ymdToDays } from "./dates";
import type { Field, FieldType, Page } from "./types";
import { z } from "zod";
import { emailAddress } from "../ui/validation";
import { asksForEmail, DEFAULT_PROMPTS, EMAIL_ADDRESS, fieldLimits, listOptions, validatePage, type FormValues } from "./validate";

const TODAY = ymdToDays(2024, 3, 15) as number;

function field(type: FieldType, name: string, extra: Partial<Field> = {}): Field {
  return {
    type,
    label: name,
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
  };
}

function page(fields: Field[]): Page {
  return {
    name: "P",
    type: "A2J",
    step: 0,
    repeatVar: "",
    nested: false,
    outerLoopVar: "",
    text: "",
    textCitation: "",
    textAudioURL: "",
    learn: "",
    help: "",
    helpCitation: "",
    helpMediaLabel: "",
    helpAudioURL: "",
    helpReader: "",
    helpImageURL: "",
    helpAltText: "",
    helpVideoURL: "",
    fields,
    buttons: [],
    codeBefore: "",
    codeAfter: "",
    codeCitation: "",
    notes: "",
  };
}

function check(fields: Field[], values: FormValues) {
  const r = validatePage(page(fields), values, TODAY);
  return { messages: r.errors.map((e) => e.message), stored: Object.fromEntries(r.assignments.map((a) => [a.name, a.value])) };
}

describe("text-like fields: required and maxChars", () => {
  for (const t of ["text", "textlong", "numberssn", "numberphone", "numberzip", "useravatar"] as FieldType[]) {
    test(t, () => {
      const f = field(t, "V", { required: true, maxChars: "5" });
      const prompt = t === "numberssn" || t === "numberphone" || t === "numberzip" ? DEFAULT_PROMPTS[t] : DEFAULT_PROMPTS.text;
      expect(check([f], {}).messages).toEqual([prompt]);
      expect(check([f], { v: "   " }).messages).toEqual([prompt]);
      expect(check([f], { v: "123456" }).messages).toEqual([DEFAULT_PROMPTS.maxChars(5)]);
      expect(check([f], { v: "12345" })).toEqual({ messages: [], stored: { V: "12345" } });
      expect(check([field(t, "V")], {})).toEqual({ messages: [], stored: { V: "" } });
    });
  }
  test("invalidPrompt replaces the default message", () => {
    const f = field("text", "V", { required: true, invalidPrompt: "Type your name." });
    expect(check([f], {}).messages).toEqual(["Type your name."]);
  });
  test("textlong keeps line breaks", () => {
    expect(check([field("textlong", "V")], { v: "a\r\nb" }).stored).toEqual({ V: "a\nb" });
  });
  test("a line break counts as one character towards maxChars, as the browser's maxlength counts it", () => {
    expect(check([field("textlong", "V", { maxChars: "3" })], { v: "a\r\nb" }).messages).toEqual([]);
    expect(check([field("textlong", "V", { maxChars: "3" })], { v: "a\r\nbc" }).messages).toEqual([DEFAULT_PROMPTS.maxChars(3)]);
  });
});

describe("number fields", () => {
  test("number: is a number, required, min/max; commas and $ accepted", () => {
    const f = field("number", "N", { required: true, min: "0", max: "1,000" });
    expect(check([f], {}).messages).toEqual([DEFAULT_PROMPTS.number]);
    expect(check([f], { n: "abc" }).messages).toEqual([DEFAULT_PROMPTS.number]);
    expect(check([f], { n: "-1" }).messages).toEqual([DEFAULT_PROMPTS.numberRange("0", "1000")]);
    expect(check([f], { n: "1,001" }).messages).toHaveLength(1);
    expect(check([f], { n: "999.5" }).stored).toEqual({ N: 999.5 });
  });
  test("numberdollar", () => {
    const f = field("numberdollar", "D", { min: "10" });
    expect(check([f], { d: "$1,234.50" }).stored).toEqual({ D: 1234.5 });
    expect(check([f], { d: "5" }).messages).toEqual([DEFAULT_PROMPTS.numberRange("10", "")]);
    expect(check([f], { d: "five" }).messages).toEqual([DEFAULT_PROMPTS.numberdollar]);
    expect(check([f], { d: "" }).stored).toEqual({ D: null });
  });
  test("numberpick: integers within min..max", () => {
    const f = field("numberpick", "K", { required: true, min: "1", max: "3" });
    expect(check([f], {}).messages).toEqual([DEFAULT_PROMPTS.numberpick]);
    expect(check([f], { k: "2.5" }).messages).toEqual([DEFAULT_PROMPTS.numberpick]);
    expect(check([f], { k: "4" }).messages).toEqual([DEFAULT_PROMPTS.numberRange("1", "3")]);
    expect(check([f], { k: "3" }).stored).toEqual({ K: 3 });
  });
});

describe("datemdy", () => {
  test("accepts MMDDYY, MMDDYYYY, m/d/yy, m-d-yyyy and ISO; normalises to MM/DD/YYYY", () => {
    const f = field("datemdy", "D");
    expect(check([f], { d: "010203" }).stored).toEqual({ D: "01/02/2003" });
    expect(check([f], { d: "01022003" }).stored).toEqual({ D: "01/02/2003" });
    expect(check([f], { d: "1/2/03" }).stored).toEqual({ D: "01/02/2003" });
    expect(check([f], { d: "1-2-1999" }).stored).toEqual({ D: "01/02/1999" });
    expect(check([f], { d: "2003-01-02" }).stored).toEqual({ D: "01/02/2003" });
    expect(check([f], { d: "TODAY" }).stored).toEqual({ D: "03/15/2024" });
  });
  test("rejects impossible dates; required; min/max with TODAY", () => {
    const f = field("datemdy", "D", { required: true, min: "01/01/2000", max: "TODAY" });
    expect(check([f], { d: "02/30/2020" }).messages).toEqual([DEFAULT_PROMPTS.datemdy]);
    expect(check([f], {}).messages).toEqual([DEFAULT_PROMPTS.datemdy]);
    expect(check([f], { d: "12/31/1999" }).messages).toEqual([DEFAULT_PROMPTS.dateRange("01/01/2000", "03/15/2024")]);
    expect(check([f], { d: "03/16/2024" }).messages).toHaveLength(1);
    expect(check([f], { d: "2/29/2024" }).stored).toEqual({ D: "02/29/2024" });
  });
});

describe("limits people can meet (issue 29)", () => {
  const december2014 = { min: "12/01/2014", max: "12/31/2014" };
  const britishStyle = { ...dateLocale("DMY", "long"), language: "en" };

  test("a date field's limits, written as the country writes dates; one limit alone; TODAY as today's date", () => {
    expect(fieldLimits(field("datemdy", "D", december2014), TODAY, britishStyle)).toEqual({ id: "dateBetween", values: { min: "1 December 2014", max: "31 December 2014" } });
    expect(fieldLimits(field("datemdy", "D", { min: "12/01/2014" }), TODAY, britishStyle)).toEqual({ id: "dateFrom", values: { min: "1 December 2014", max: "" } });
    expect(fieldLimits(field("datemdy", "D", { max: "TODAY" }), TODAY, britishStyle)).toEqual({ id: "dateUntil", values: { min: "", max: "15 March 2024" } });
    expect(fieldLimits(field("datemdy", "D", december2014), TODAY, { ...dateLocale("DMY", "long"), language: "fr" })?.values).toEqual({ min: "1 décembre 2014", max: "31 décembre 2014" });
    // A2J's own way (no country): MM/DD/YYYY.
    expect(fieldLimits(field("datemdy", "D", december2014), TODAY)?.values).toEqual({ min: "12/01/2014", max: "12/31/2014" });
    // No limit, or one that cannot be read: nothing to say.
    expect(fieldLimits(field("datemdy", "D"), TODAY)).toBeNull();
    expect(fieldLimits(field("datemdy", "D", { min: "soon" }), TODAY)).toBeNull();
  });

  test("a number field's limits are numbers, for a viewer to write with the language's decimal sign", () => {
    expect(fieldLimits(field("number", "N", { min: "1", max: "10" }), TODAY)).toEqual({ id: "numberBetween", values: { min: 1, max: 10 } });
    expect(fieldLimits(field("numberdollar", "N", { min: "$0.5" }), TODAY)).toEqual({ id: "numberAtLeast", values: { min: 0.5, max: "" } });
    expect(fieldLimits(field("number", "N", { max: "1,000" }), TODAY)).toEqual({ id: "numberAtMost", values: { min: "", max: 1000 } });
    expect(fieldLimits(field("numberpick", "N", { min: "1", max: "3" }), TODAY)?.id).toBe("numberBetween");
    expect(fieldLimits(field("number", "N"), TODAY)).toBeNull();
    expect(fieldLimits(field("text", "T", { min: "1" }), TODAY)).toBeNull();
  });

  test("a date outside its limits keeps the author's prompt, and the limits follow it as the reason", () => {
    const prompt = "You must enter a month, day and year in the highlighted spaces";
    const f = field("datemdy", "D", { ...december2014, invalidPrompt: prompt });
    const { errors } = validatePage(page([f]), { d: "01/13/1990" }, TODAY, britishStyle);
    expect(errors).toEqual([{ fieldIndex: 0, inputName: "d", message: prompt, reason: { id: "dateBetween", values: { min: "1 December 2014", max: "31 December 2014" } } }]);
    // Inside the limits: no error; an unreadable date: the author's prompt alone (it is what is wrong).
    expect(validatePage(page([f]), { d: "12/25/2014" }, TODAY, britishStyle).errors).toEqual([]);
    expect(validatePage(page([f]), { d: "nonsense" }, TODAY, britishStyle).errors).toEqual([{ fieldIndex: 0, inputName: "d", message: prompt }]);
    // Without a prompt of the author's, the limits are the message.
    const bare = validatePage(page([field("datemdy", "D", december2014)]), { d: "01/13/1990" }, TODAY, britishStyle).errors[0]!;
    expect(bare).toMatchObject({ message: "Please enter a date between 1 December 2014 and 31 December 2014.", says: { id: "dateBetween" } });
    expect(bare.reason).toBeUndefined();
  });

  test("a number outside its limits: the same, for numbers and number picks", () => {
    const f = field("number", "N", { min: "1", max: "10", invalidPrompt: "Type how many." });
    expect(validatePage(page([f]), { n: "11" }, TODAY).errors[0]).toMatchObject({ message: "Type how many.", reason: { id: "numberBetween", values: { min: 1, max: 10 } } });
    expect(validatePage(page([f]), { n: "0.5" }, TODAY).errors[0]?.reason?.id).toBe("numberBetween");
    expect(validatePage(page([f]), { n: "ten" }, TODAY).errors[0]).toEqual({ fieldIndex: 0, inputName: "n", message: "Type how many." });
    const pick = field("numberpick", "K", { min: "1", max: "3", invalidPrompt: "Pick one." });
    expect(validatePage(page([pick]), { k: "4" }, TODAY).errors[0]).toMatchObject({ message: "Pick one.", reason: { id: "numberBetween", values: { min: 1, max: 3 } } });
  });
});

describe("choices", () => {
  test("radio: group-required, value must be one of the options", () => {
    const fields = [field("radio", "R", { value: "a", required: true }), field("radio", "R", { value: "b" })];
    expect(check(fields, {}).messages).toEqual([DEFAULT_PROMPTS.radio]);
    expect(check(fields, { r: "c" }).messages).toEqual([DEFAULT_PROMPTS.radio]);
    expect(check(fields, { r: "b" })).toEqual({ messages: [], stored: { R: "b" } });
    expect(check([field("radio", "R", { value: "a" })], {})).toEqual({ messages: [], stored: {} });
  });
  test("checkbox: group-required across the page; unchecked stores false", () => {
    const fields = [field("checkbox", "A", { required: true }), field("checkbox", "B")];
    expect(check(fields, {}).messages).toEqual([DEFAULT_PROMPTS.checkbox]);
    expect(check(fields, { b: "on" })).toEqual({ messages: [], stored: { A: false, B: true } });
    expect(check([field("checkbox", "A"), field("checkbox", "B")], {})).toEqual({ messages: [], stored: { A: false, B: false } });
  });
  test("checkboxNOTA unchecks the others", () => {
    const fields = [field("checkbox", "A"), field("checkbox", "B"), field("checkboxNOTA", "None", { required: true })];
    expect(check(fields, { a: "on", none: "on" }).stored).toEqual({ A: false, B: false, None: true });
    expect(check(fields, {}).messages).toEqual([DEFAULT_PROMPTS.checkboxNOTA]);
  });
  test("textpick: options from listData (value or text), sorted by order", () => {
    const f = field("textpick", "T", { required: true, listData: '<option value="z">Zed</option><option>Alpha</option>', order: "ASC" });
    expect(listOptions(f)).toEqual([
      { value: "Alpha", label: "Alpha" },
      { value: "z", label: "Zed" },
    ]);
    expect(check([f], {}).messages).toEqual([DEFAULT_PROMPTS.textpick]);
    expect(check([f], { t: "Zed" }).messages).toEqual([DEFAULT_PROMPTS.textpick]);
    expect(check([f], { t: "z" }).stored).toEqual({ T: "z" });
  });
  test("gender: Male or Female", () => {
    const f = field("gender", "User Gender", { required: true });
    expect(check([f], {}).messages).toEqual([DEFAULT_PROMPTS.gender]);
    expect(check([f], { "user gender": "other" }).messages).toEqual([DEFAULT_PROMPTS.gender]);
    expect(check([f], { "user gender": "male" }).stored).toEqual({ "User Gender": "Male" });
  });
  test("attachment (our extension) stores the file path", () => {
    const f = field("attachment", "Lease", { required: true });
    expect(check([f], {}).messages).toHaveLength(1);
    expect(check([f], { lease: "uploads/abc.pdf" }).stored).toEqual({ Lease: "uploads/abc.pdf" });
  });
  test("fields without a variable name are validated but not stored", () => {
    expect(check([field("textlong", "")], { "field-1": "hi" })).toEqual({ messages: [], stored: {} });
  });
});

describe("email addresses asked in an interview", () => {
  const page = (name: string, required = false) =>
    ({ name: "P", fields: [{ type: "text", name, label: "Email", required, value: "", maxChars: "", invalidPrompt: "", min: "", max: "", order: "", listData: "", listSrc: "" }] }) as unknown as Page;
  test.each([["sam@@example"], ["sam@example"], ["sam example.org"], [".sam@example.org"], ["sam..lee@example.org"]])("%j is refused as the account forms refuse it", (typed) => {
    expect(validatePage(page("Contact email TE"), { "contact email te": typed }, 0).errors.map((e) => e.message)).toEqual(["The email format is invalid."]);
    expect(emailAddress().safeParse(typed).success).toBe(false);
  });
  test("a good address, a blank optional one, and a field that does not ask for an email are kept", () => {
    expect(validatePage(page("User e-mail"), { "user e-mail": " sam@example.org " }, 0)).toEqual({ errors: [], assignments: [{ name: "User e-mail", value: "sam@example.org" }] });
    expect(validatePage(page("Contact email TE"), { "contact email te": "" }, 0).errors).toEqual([]);
    expect(validatePage(page("Emailed note TE"), { "emailed note te": "sam@@example" }, 0).errors).toEqual([]);
    expect(asksForEmail({ type: "textlong", name: "Email TE" })).toBe(false);
  });
  test("the pattern is zod's own", () => {
    expect(EMAIL_ADDRESS.source).toBe(z.regexes.email.source);
  });
});
