// CI's check of the catalogues (docs/decisions/0043-languages.md): every language has exactly English's keys, and
// each message has English's placeholders, of the same kinds, and English's tags; plural forms are the
// language's own. A missing key, an extra key or a changed placeholder fails the build.
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import { languages, PSEUDO_LANGUAGE } from "./languages";
import { placeholders } from "./placeholders";
import { catalogues, translator, viewerCatalogues } from "./translator";
import { viewerOnlyLanguages } from "./viewer-languages";

const english = catalogues.en as Record<string, string>;

function pluralCategories(message: string): string[] {
  const categories: string[] = [];
  const walk = (elements: MessageFormatElement[]) => {
    for (const element of elements) {
      if (element.type === TYPE.plural) {
        categories.push(...Object.keys(element.options).filter((name) => !name.startsWith("=")));
        for (const option of Object.values(element.options)) walk(option.value);
      } else if (element.type === TYPE.select) for (const option of Object.values(element.options)) walk(option.value);
      else if (element.type === TYPE.tag) walk(element.children);
    }
  };
  walk(parse(message, { ignoreTag: false }));
  return categories;
}

/** The keys a catalogue must hold: all of English's, or for a language only the viewer speaks its `viewer.*` keys. */
const VIEWER_KEYS = Object.keys(english).filter((key) => key.startsWith("viewer."));

const everyCatalogue = [
  ...languages.map((language) => [language.code, catalogues[language.code] as Record<string, string>, Object.keys(english)] as const),
  ...viewerOnlyLanguages.map((language) => [language.code, viewerCatalogues[language.code] as Record<string, string>, VIEWER_KEYS] as const),
];

describe.each(everyCatalogue)("the %s catalogue", (code, catalogue, keys) => {
  it("has exactly the English keys (a viewer-only language: the viewer's)", () => {
    const missing = keys.filter((key) => !Object.hasOwn(catalogue, key));
    const extra = Object.keys(catalogue).filter((key) => !keys.includes(key));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
  });

  it("keeps every message's placeholders and tags", () => {
    const differing = Object.keys(english)
      .filter((key) => Object.hasOwn(catalogue, key))
      .flatMap((key) => {
        const ours = placeholders(catalogue[key]!);
        const theirs = placeholders(english[key]!);
        return ours.join() === theirs.join() ? [] : [`${key}: ${ours.join(" ")} ≠ English ${theirs.join(" ")}`];
      });
    expect(differing).toEqual([]);
  });

  it("uses the language's own plural forms, with 'other' always", () => {
    const allowed = new Set(new Intl.PluralRules(code).resolvedOptions().pluralCategories as string[]);
    const wrong = Object.entries(catalogue).flatMap(([key, message]) => {
      const used = pluralCategories(message);
      if (used.length === 0) return [];
      const problems = used.filter((name) => !allowed.has(name)).map((name) => `${key}: "${name}" is not a plural form of ${code}`);
      return used.includes("other") ? problems : [...problems, `${key}: no "other" form`];
    });
    expect(wrong).toEqual([]);
  });

  it("has no empty message", () => {
    expect(Object.entries(catalogue).filter(([, message]) => message.trim() === "").map(([key]) => key)).toEqual([]);
  });
});

describe("a translator", () => {
  it("fills placeholders and plurals in the language", () => {
    expect(translator("en").t("header.welcome", { name: "Sam Lee" })).toBe("Welcome Sam Lee");
    expect(translator("fr").t("errorPage.status", { status: 404 })).toBe("Erreur 404");
    expect(translator("ar").dir).toBe("rtl");
  });

  it("puts a message reference into words, and leaves other text as it is", async () => {
    const { messageRef } = await import("./translator");
    expect(translator("en").message(messageRef("errorPage.status", { status: 429 }))).toBe("Error 429");
    expect(translator("fr").message("Sam's own words")).toBe("Sam's own words");
  });

  it("renders every English message in the pseudo-language, accented and bracketed", () => {
    const pseudo = translator(PSEUDO_LANGUAGE);
    for (const [key, message] of Object.entries(english)) {
      const values = Object.fromEntries(
        placeholders(message)
          .filter((name) => !name.startsWith("<"))
          .map((name) => {
            const [variable, kind] = name.split(":") as [string, string];
            return [variable, kind === "date" ? new Date(0) : kind === "number" || kind === "plural" ? 2 : "x"];
          }),
      );
      const text = pseudo.t(key as never, values);
      expect(text.startsWith("⟦") && text.endsWith("⟧"), key).toBe(true);
    }
  });

  it("formats dates in the language", () => {
    const day = new Date(Date.UTC(2026, 10, 25, 12));
    expect(translator("en").date(day, { dateStyle: "long", timeZone: "UTC" })).toBe("25 November 2026");
    expect(translator("zh-Hans").date(day, { dateStyle: "long", timeZone: "UTC" })).toBe("2026年11月25日");
  });
});
