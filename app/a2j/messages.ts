/**
 * The engine's own messages as identifiers and values: a viewer puts them in the guide's language (the engine
 * has no words of its own beyond their English, validate.ts's DEFAULT_PROMPTS and dates.ts's date boxes).
 */

/** The engine's own messages, by identifier (their English is DEFAULT_PROMPTS's, and dates.ts's for date boxes). */
export type ValidationMessageId =
  | "text"
  | "textpick"
  | "number"
  | "numberdollar"
  | "numberssn"
  | "numberphone"
  | "numberzip"
  | "numberpick"
  | "datemdy"
  | "gender"
  | "radio"
  | "checkbox"
  | "checkboxNOTA"
  | "noChoices"
  | "maxChars"
  | "email"
  | "numberBetween"
  | "numberAtLeast"
  | "numberAtMost"
  | "dateBetween"
  | "dateFrom"
  | "dateUntil"
  | "dateMissing"
  | "dayRange"
  | "monthRange"
  | "yearDigits"
  | "realDay";

/** One of the engine's messages as an identifier and its values (numbers, dates already written out). */
export interface MessageSays {
  id: ValidationMessageId;
  values?: Record<string, string | number>;
}
