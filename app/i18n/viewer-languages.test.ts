import { describe, expect, it } from "vitest";
import { viewerLanguageOf, viewerLanguages } from "./viewer-languages";

describe("a guide's language attribute finds the viewer's catalogue", () => {
  it.each([
    ["en", "en"],
    ["en-US", "en"],
    ["EN", "en"],
    ["fr", "fr"],
    ["fr-CA", "fr"],
    ["es", "es"],
    ["es-MX", "es"],
    ["zh-cn", "zh-Hans"],
    ["zh_CN", "zh-Hans"],
    ["zh", "zh-Hans"],
    ["ar", "ar"],
    ["vi", "vi"],
    ["ko", "ko"],
    ["he", "he"],
    ["iw", "he"],
    ["mkh", "km"],
    ["km", "km"],
    ["cld", "cld"],
    ["hmn", "hmn"],
    ["sq", "sq"],
    ["bn", "bn"],
    ["pl", "pl"],
    ["ru", "ru"],
    ["th", "th"],
    ["nl", "nl"],
    ["ms", "ms"],
    ["ta", "ta"],
    ["cy", "cy"],
  ])("%j → %s", (attribute, tag) => {
    expect(viewerLanguageOf(attribute).code).toBe(tag);
  });

  it.each([[""], [null], [undefined], ["pt-BR"], ["zh-TW"], ["English"], ["??"], ["x-klingon"]])("%j (unknown) → English", (attribute) => {
    expect(viewerLanguageOf(attribute).code).toBe("en");
  });

  it("covers CCALI's viewer languages; English alone is reviewed; Arabic, Hebrew and Chaldean run right to left", () => {
    expect(viewerLanguages.map((l) => l.code).sort()).toEqual(["ar", "bn", "cld", "cy", "en", "es", "fr", "he", "hmn", "km", "ko", "ms", "nl", "pl", "ru", "sq", "ta", "th", "vi", "zh-Hans"]);
    expect(viewerLanguages.filter((l) => l.review === "reviewed").map((l) => l.code)).toEqual(["en"]);
    expect(viewerLanguages.filter((l) => l.dir === "rtl").map((l) => l.code)).toEqual(["ar", "cld", "he"]);
  });
});
