// What a message needs from whoever fills it in: its placeholders and tags. A translation must keep English's
// (app/i18n/catalogues.test.ts checks the catalogues; an administrator's correction is checked when saved).
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";

/** "name:kind" for every placeholder and "<tag>" for every tag of a message, sorted, nested ones included. */
export function placeholders(message: string): string[] {
  const found = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.argument) found.add(`${element.value}:text`);
      else if (element.type === TYPE.number) found.add(`${element.value}:number`);
      else if (element.type === TYPE.date || element.type === TYPE.time) found.add(`${element.value}:date`);
      else if (element.type === TYPE.plural) {
        found.add(`${element.value}:plural`);
        for (const option of Object.values(element.options)) walk(option.value);
      } else if (element.type === TYPE.select) {
        found.add(`${element.value}:select`);
        for (const option of Object.values(element.options)) walk(option.value);
      } else if (element.type === TYPE.tag) {
        found.add(`<${element.value}>`);
        walk(element.children);
      }
    }
  };
  walk(parse(message, { ignoreTag: false }));
  return [...found].sort();
}

/** Null when `message` can stand for `english`: it parses, and has the same placeholders and tags; else why not. */
export function placeholderProblem(message: string, english: string): { missing: string[]; extra: string[] } | { unreadable: true } | null {
  let mine: string[];
  try {
    mine = placeholders(message);
  } catch {
    return { unreadable: true };
  }
  const theirs = placeholders(english);
  const missing = theirs.filter((p) => !mine.includes(p));
  const extra = mine.filter((p) => !theirs.includes(p));
  return missing.length || extra.length ? { missing, extra } : null;
}
