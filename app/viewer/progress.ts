import type { PageView } from "~/a2j";
import { translator, type Translator } from "~/i18n/translator";

/** A number of the viewer's own (a step, an entry) in the guide's language, with Latin digits. */
export function viewerNumber(t: Translator, value: number): string {
  return t.number(value, { numberingSystem: "latn", useGrouping: false });
}

/**
 * Where the person is, in words of the guide's language: "Step 2 of 5: About you", then for a loop's page which
 * entry it is ("Event 2 of 3", or "Event 2" when the guide holds no count; "Entry 2" when the guide names no
 * noun). Null when the guide gives nothing to say.
 */
export function progressLine(page: Pick<PageView, "progress" | "step">, t: Translator = translator("en")): string | null {
  const { step, entry } = page.progress;
  const parts: string[] = [];
  const name = page.step.text.trim();
  if (step) {
    const numbers = { number: viewerNumber(t, step.number), count: viewerNumber(t, step.of) };
    parts.push(name ? t.t("viewer.progress.stepNamed", { ...numbers, name }) : t.t("viewer.progress.step", numbers));
  } else if (name) parts.push(name);
  if (entry) {
    const noun = entry.unnamed ? t.t("viewer.entry") : entry.noun;
    const number = viewerNumber(t, entry.number);
    parts.push(entry.of !== null ? t.t("viewer.progress.entry", { noun, number, count: viewerNumber(t, entry.of) }) : t.t("viewer.progress.entryNumber", { noun, number }));
  }
  return parts.length ? parts.join(" – ") : null;
}
