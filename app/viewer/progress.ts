import type { PageView } from "~/a2j";

/**
 * Where the person is, in words: "Step 2 of 5: About you", then for a loop's page which entry it is ("Event 2
 * of 3", or "Event 2" when the guide holds no count). Null when the guide gives nothing to say.
 */
export function progressLine(page: Pick<PageView, "progress" | "step">): string | null {
  const { step, entry } = page.progress;
  const parts: string[] = [];
  const name = page.step.text.trim();
  if (step) parts.push(`Step ${step.number} of ${step.of}${name ? `: ${name}` : ""}`);
  else if (name) parts.push(name);
  if (entry) parts.push(`${entry.noun} ${entry.number}${entry.of !== null ? ` of ${entry.of}` : ""}`);
  return parts.length ? parts.join(" – ") : null;
}
