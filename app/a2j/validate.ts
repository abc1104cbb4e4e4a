/**
 * Field validation and form-value parsing for every A2J field type.
 */
import { varKey } from "./answers";
import type { MessageSays, ValidationMessageId } from "./messages";

export type { MessageSays, ValidationMessageId } from "./messages";
import { A2J_DATES, type DateBox, dateBoxesEnglish, type DateLocale, formatDays, formatDaysFor, parseUserDate } from "./dates";
import type { Field, Page } from "./types";
import { parseLooseNumber, type Val } from "./values";
import { decodeEntities } from "./xml";

/** Values posted by the viewer's form, keyed by each field's `inputName`. */
export type FormValues = Record<string, string | string[] | undefined>;

export interface FieldError {
  /** Index of the field on the page. */
  fieldIndex: number;
  /** The field's input name. */
  inputName: string;
  /** Message to show (the field's invalidPrompt, or a default). */
  message: string;
  /** For a date field read from Day/Month/Year boxes: the boxes that are wrong (all of them when absent). */
  boxes?: DateBox[];
  /**
   * What the message says, when it is one of the engine's own (absent for the author's invalidPrompt): an
   * identifier and its values, so that a viewer can put it in the guide's language. `message` is its English.
   */
  says?: MessageSays;
  /**
   * Why the answer was refused, when the author's own prompt (`message`) does not say it: the field's limits
   * ("Please enter a date between 1 December 2014 and 31 December 2014."). The prompt stays; the reason follows it.
   */
  reason?: MessageSays;
}


export interface Assignment {
  name: string;
  value: Val;
}

/** The name of a field's form input: its variable name lower-cased, or `field-N` for unnamed fields. */
export function inputName(field: Field, index: number): string {
  const k = varKey(field.name);
  return k === "" ? `field-${index + 1}` : k;
}

/**
 * Default messages, used when a field has no invalidPrompt: A2J's English field prompts (lang
 * `FieldPrompts_<type>`) for a missing or unreadable answer, and our own, more specific, messages for
 * maxChars and min/max failures (A2J shows the generic prompt there).
 */
export const DEFAULT_PROMPTS = {
  text: "You must type a response in the highlighted space before you can continue.",
  textpick: "You must make a selection from the highlighted space before you can continue.",
  number: "You must type a number in the highlighted space before you can continue.",
  numberdollar: "You must type a dollar amount in the highlighted space before you can continue.",
  numberssn: "You must type a social security number in the highlighted spaces before you can continue.",
  numberphone: "You must type a phone number in the highlighted spaces before you can continue.",
  numberzip: "You must type a zip code in the highlighted space before you can continue.",
  numberpick: "You must select a number from the highlighted space before you can continue.",
  datemdy: "You must enter a month, day and year in the highlighted spaces before you can continue.",
  gender: "You must choose either male or female from the highlighted selection before you can continue.",
  radio: "You must choose a response from the highlighted selection before you can continue.",
  checkbox: "You must select one or more checkboxes to continue.",
  checkboxNOTA: 'Please select one or more checkboxes or "None of the above" to continue.',
  /** A pick list without choices (its list file did not come with the guide): nothing typed can stand in for them. */
  noChoices: "This question cannot be answered yet: its list of choices is missing from the interview. Please tell the organisation that runs this interview.",
  maxChars: (n: number) => `Please use no more than ${n} characters.`,
  /** The account forms' own words (app/ui/validation.ts), for an email address asked in an interview. */
  email: "The email format is invalid.",
  numberRange: (min: string, max: string) =>
    min !== "" && max !== "" ? `Please enter a number between ${min} and ${max}.` : min !== "" ? `Please enter a number of at least ${min}.` : `Please enter a number no greater than ${max}.`,
  dateRange: (min: string, max: string) =>
    min !== "" && max !== "" ? `Please enter a date between ${min} and ${max}.` : min !== "" ? `Please enter a date on or after ${min}.` : `Please enter a date on or before ${max}.`,
} as const;

/**
 * The email address pattern the account forms check with (zod's, app/ui/validation.ts uses this one), so an
 * address refused there is refused in an interview too ("sam@@example", "sam@example").
 */
export const EMAIL_ADDRESS = /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

/** A text field that asks for an email address: A2J has no such type, so its variable's name says so ("Contact email TE"). */
export function asksForEmail(field: Pick<Field, "type" | "name">): boolean {
  return field.type === "text" && /\be-?mail\b/i.test(field.name);
}

function typePrompt(t: Field["type"]): MessageSays {
  return { id: typePromptId(t) };
}

function typePromptId(t: Field["type"]): ValidationMessageId {
  switch (t) {
    case "textpick":
    case "number":
    case "numberdollar":
    case "numberssn":
    case "numberphone":
    case "numberzip":
    case "numberpick":
    case "datemdy":
    case "gender":
    case "radio":
    case "checkbox":
    case "checkboxNOTA":
      return t;
    default:
      return "text";
  }
}

/** The English of one of the engine's messages. */
export function englishMessage({ id, values = {} }: MessageSays): string {
  const v = (name: string) => String(values[name] ?? "");
  switch (id) {
    case "maxChars":
      return DEFAULT_PROMPTS.maxChars(Number(values.max));
    case "numberBetween":
    case "numberAtLeast":
    case "numberAtMost":
      return DEFAULT_PROMPTS.numberRange(id === "numberAtMost" ? "" : v("min"), id === "numberAtLeast" ? "" : v("max"));
    case "dateBetween":
    case "dateFrom":
    case "dateUntil":
      return DEFAULT_PROMPTS.dateRange(id === "dateUntil" ? "" : v("min"), id === "dateFrom" ? "" : v("max"));
    case "dateMissing":
    case "dayRange":
    case "monthRange":
    case "yearDigits":
    case "realDay":
      return dateBoxesEnglish({ id, values });
    default:
      return DEFAULT_PROMPTS[id];
  }
}

/** A number field's limits: the numbers themselves (a viewer writes them with the language's decimal sign). */
function numberRangeSays(min: number | null, max: number | null): MessageSays {
  return { id: min !== null && max !== null ? "numberBetween" : min !== null ? "numberAtLeast" : "numberAtMost", values: { min: min ?? "", max: max ?? "" } };
}

/** A date field's limits: the dates written as the locale shows dates to people. */
function dateRangeSays(min: string, max: string): MessageSays {
  return { id: min !== "" && max !== "" ? "dateBetween" : min !== "" ? "dateFrom" : "dateUntil", values: { min, max } };
}

/** A number bound of a field ("1,000", "$10"), or null when absent or unreadable. */
function numberBound(s: string): number | null {
  const n = parseLooseNumber(s);
  return s.trim() === "" || Number.isNaN(n) ? null : n;
}

/** The limits of a number field (number, numberdollar, numberpick), as read from its min and max. */
function numberLimits(field: Pick<Field, "min" | "max">): { min: number | null; max: number | null } {
  return { min: numberBound(field.min), max: numberBound(field.max) };
}

/** The limits of a date field, as days ("TODAY" is `today`). */
function dateLimits(field: Pick<Field, "min" | "max">, today: number): { min: number | null; max: number | null } {
  return { min: dateBound(field.min, today), max: dateBound(field.max, today) };
}

/**
 * What a number or date field's limits are, as one of the engine's messages (numberBetween, dateFrom…), so that
 * a viewer can say them before anyone errs; null for a field without limits (or of another type). Dates are
 * written as the locale shows them to people ("1 December 2014"), "TODAY" as today's date.
 */
export function fieldLimits(field: Pick<Field, "type" | "min" | "max">, today: number, dates: DateLocale = A2J_DATES): MessageSays | null {
  if (field.type === "number" || field.type === "numberdollar" || field.type === "numberpick") {
    const { min, max } = numberLimits(field);
    return min === null && max === null ? null : numberRangeSays(min, max);
  }
  if (field.type === "datemdy") {
    const { min, max } = dateLimits(field, today);
    return min === null && max === null ? null : dateRangeSays(min === null ? "" : formatDaysFor(min, dates), max === null ? "" : formatDaysFor(max, dates));
  }
  return null;
}

export interface PickOption {
  value: string;
  label: string;
}

/** Options of a textpick list: `<option value="v">Label</option>` markup, sorted by the field's order. */
export function listOptions(field: Field): PickOption[] {
  const opts: PickOption[] = [];
  const re = /<option\b([^>]*)>([\s\S]*?)<\/option\s*>/gi;
  let m: RegExpExecArray | null;
  while ((m = re.exec(field.listData)) !== null) {
    const attrs = m[1] ?? "";
    const label = decodeEntities((m[2] ?? "").replace(/<[^>]*>/g, "")).trim();
    const vm = /\bvalue\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
    const value = vm ? decodeEntities(vm[1] ?? vm[2] ?? vm[3] ?? "") : label;
    opts.push({ value, label });
  }
  const order = field.order.toUpperCase();
  if (order === "ASC") opts.sort((a, b) => a.label.localeCompare(b.label));
  else if (order === "DESC") opts.sort((a, b) => b.label.localeCompare(a.label));
  return opts;
}

/** Integer choices of a numberpick (min..max, capped at 1,000 entries). */
export function numberPickOptions(field: Field): number[] {
  const min = parseLooseNumber(field.min);
  const max = parseLooseNumber(field.max);
  const lo = Number.isNaN(min) ? 0 : Math.ceil(min);
  const hi = Number.isNaN(max) ? lo + 100 : Math.floor(max);
  const out: number[] = [];
  for (let i = lo; i <= hi && out.length < 1000; i++) out.push(i);
  return out;
}

function first(v: string | string[] | undefined): string {
  if (v === undefined) return "";
  if (Array.isArray(v)) return v[0] ?? "";
  return v;
}

function isChecked(v: string | string[] | undefined): boolean {
  const s = first(v).trim().toLowerCase();
  return s !== "" && s !== "false" && s !== "0" && s !== "off";
}

/** A date bound: "TODAY" or a date string; null when absent or unreadable. */
function dateBound(s: string, today: number): number | null {
  const t = s.trim();
  if (t === "") return null;
  if (t.toUpperCase() === "TODAY") return today;
  return parseUserDate(t);
}

function plain(html: string): string {
  return html.trim();
}

/**
 * Validate the posted values of a page and compute what to store. Fields are validated as A2J does:
 * text-like (required, maxChars), numbers (is a number, required, min/max), numberpick (required, range),
 * dates (is a date, required, min/max incl. TODAY), pick lists/gender/avatar (required), radios and
 * checkboxes (group-required). checkboxNOTA unchecks the other checkboxes.
 */
export function validatePage(
  page: Page,
  values: FormValues,
  today: number,
  dates: DateLocale = A2J_DATES,
): { errors: FieldError[]; assignments: Assignment[] } {
  const errors: FieldError[] = [];
  const assignments: Assignment[] = [];
  const err = (f: Field, i: number, says: MessageSays) => {
    const custom = plain(f.invalidPrompt);
    errors.push(custom !== "" ? { fieldIndex: i, inputName: inputName(f, i), message: custom } : { fieldIndex: i, inputName: inputName(f, i), message: englishMessage(says), says });
  };
  // Outside the field's limits: the author's prompt (which rarely says them) keeps its place, the limits follow it.
  const outside = (f: Field, i: number, limits: MessageSays) => {
    const custom = plain(f.invalidPrompt);
    if (custom === "") return err(f, i, limits);
    errors.push({ fieldIndex: i, inputName: inputName(f, i), message: custom, reason: limits });
  };
  const own = (id: ValidationMessageId): MessageSays => ({ id });
  const radioGroups = new Set<string>();
  let checkboxRequired = false;
  let checkboxAny = false;
  let firstCheckbox = -1;
  let notaChecked = false;

  page.fields.forEach((f, i) => {
    const name = inputName(f, i);
    const raw = first(values[name]);
    const s = raw.trim();
    const store = (v: Val) => {
      if (f.name.trim() !== "") assignments.push({ name: f.name, value: v });
    };
    switch (f.type) {
      case "text":
      case "textlong":
      case "numberssn":
      case "numberphone":
      case "numberzip":
      case "useravatar":
      case "attachment": {
        if (f.required && s === "") return err(f, i, typePrompt(f.type));
        const max = parseInt(f.maxChars, 10);
        // A browser sends a textarea's line breaks as CRLF but counts each as one character for maxlength.
        const text = f.type === "textlong" ? raw.replace(/\r\n/g, "\n") : raw;
        if (Number.isFinite(max) && max > 0 && text.length > max) return err(f, i, { id: "maxChars", values: { max } });
        if (s !== "" && asksForEmail(f) && (s.length > 254 || !EMAIL_ADDRESS.test(s))) return err(f, i, own("email"));
        store(f.type === "textlong" ? text : s);
        return;
      }
      case "textpick": {
        const opts = listOptions(f);
        if (opts.length === 0 && (f.required || s !== "")) {
          // The author's prompt ("choose from the list") would send the person looking for a list that is not there.
          errors.push({ fieldIndex: i, inputName: name, message: DEFAULT_PROMPTS.noChoices, says: own("noChoices") });
          return;
        }
        if (s === "") {
          if (f.required) return err(f, i, own("textpick"));
          store(null);
          return;
        }
        if (!opts.some((o) => o.value === s)) return err(f, i, own("textpick"));
        store(s);
        return;
      }
      case "gender": {
        if (s === "") {
          if (f.required) return err(f, i, own("gender"));
          store(null);
          return;
        }
        const g = s.toLowerCase() === "male" ? "Male" : s.toLowerCase() === "female" ? "Female" : null;
        if (g === null) return err(f, i, own("gender"));
        store(g);
        return;
      }
      case "number":
      case "numberdollar":
      case "numberpick": {
        const fallback = typePrompt(f.type);
        if (s === "") {
          if (f.required) return err(f, i, fallback);
          store(null);
          return;
        }
        const n = parseLooseNumber(s);
        if (Number.isNaN(n)) return err(f, i, fallback);
        if (f.type === "numberpick" && !Number.isInteger(n)) return err(f, i, fallback);
        const { min, max } = numberLimits(f);
        if ((min !== null && n < min) || (max !== null && n > max)) return outside(f, i, fieldLimits(f, today, dates)!);
        store(n);
        return;
      }
      case "datemdy": {
        if (s === "") {
          if (f.required) return err(f, i, own("datemdy"));
          store(null);
          return;
        }
        const d = s.toUpperCase() === "TODAY" ? today : parseUserDate(s);
        if (d === null) return err(f, i, own("datemdy"));
        const { min, max } = dateLimits(f, today);
        if ((min !== null && d < min) || (max !== null && d > max)) return outside(f, i, fieldLimits(f, today, dates)!);
        store(formatDays(d));
        return;
      }
      case "radio": {
        if (radioGroups.has(name)) return;
        radioGroups.add(name);
        const group = page.fields.filter((g) => g.type === "radio" && inputName(g, page.fields.indexOf(g)) === name);
        const required = group.some((g) => g.required);
        if (s === "") {
          if (required) return err(f, i, own("radio"));
          return;
        }
        if (!group.some((g) => g.value === raw || g.value.trim() === s)) return err(f, i, own("radio"));
        store(group.find((g) => g.value === raw)?.value ?? s);
        return;
      }
      case "checkbox":
      case "checkboxNOTA":
      case "checkboxmultiple": {
        if (firstCheckbox < 0) firstCheckbox = i;
        if (f.required) checkboxRequired = true;
        const on = isChecked(values[name]);
        if (on) checkboxAny = true;
        if (on && f.type === "checkboxNOTA") notaChecked = true;
        store(on);
        return;
      }
      default: {
        // race, button: store the posted text as is.
        if (f.required && s === "") return err(f, i, own("text"));
        if (s !== "") store(s);
      }
    }
  });

  if (checkboxRequired && !checkboxAny && firstCheckbox >= 0) {
    const f = page.fields[firstCheckbox] as Field;
    const hasNota = page.fields.some((x) => x.type === "checkboxNOTA");
    err(f, firstCheckbox, own(hasNota ? "checkboxNOTA" : "checkbox"));
  }
  if (notaChecked) {
    // "None of the above" unchecks the other checkboxes.
    page.fields.forEach((f) => {
      if (f.type === "checkbox" || f.type === "checkboxmultiple") {
        for (const a of assignments) if (varKey(a.name) === varKey(f.name)) a.value = false;
      }
    });
  }
  errors.sort((a, b) => a.fieldIndex - b.fieldIndex);
  return { errors, assignments };
}
