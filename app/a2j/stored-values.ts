/**
 * What a page's form holds before anything is typed: each field's stored answer, else its default. The page
 * shows these (page-view.ts), and replaying the path after a change presses Continue with them (flow.ts), so
 * both read the answers the same way.
 */
import { getRaw, isBlank } from "./answers";
import { formatDays } from "./dates";
import type { AnswerValue, Field, Page } from "./types";
import { inputName, type FormValues } from "./validate";
import { toStr } from "./values";

export function storedText(v: AnswerValue): string {
  return v === null ? "" : toStr(v);
}

const CHOICES = new Set<Field["type"]>(["radio", "checkbox", "checkboxNOTA", "checkboxmultiple", "gender"]);

/** A field that is not a choice: its stored answer as text, or when blank the author's default ("TODAY" as today). */
export function shownText(field: Field, stored: AnswerValue, today: number): string {
  if (!isBlank(stored) || CHOICES.has(field.type) || field.value === "") return storedText(stored);
  return field.type === "datemdy" && field.value.trim().toUpperCase() === "TODAY" ? formatDays(today) : field.value;
}

/** Whether a checkbox is ticked in the stored answers. */
export function storedChecked(stored: AnswerValue): boolean {
  return stored === true || stored === "true";
}

/** The form a person pressing a button on this page would send without typing anything: what the page shows. */
export function storedFormValues(page: Page, answers: Parameters<typeof getRaw>[0], index: number, today: number): FormValues {
  const values: FormValues = {};
  page.fields.forEach((field, i) => {
    const name = inputName(field, i);
    const stored = field.name !== "" ? getRaw(answers, field.name, index) : null;
    switch (field.type) {
      case "checkbox":
      case "checkboxNOTA":
      case "checkboxmultiple":
        if (storedChecked(stored)) values[name] = "true";
        return;
      case "radio":
        if (storedText(stored) === field.value && field.value !== "") values[name] = field.value;
        return;
      default:
        values[name] = shownText(field, stored, today);
    }
  });
  return values;
}
