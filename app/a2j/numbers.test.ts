import { describe, expect, it } from "vitest";
import { decimalSeparator, numberAsTyped, readTypedNumber } from "./numbers";
import { parseLooseNumber } from "./values";

describe("numbers typed in the guide's language", () => {
  it("knows which languages write a decimal comma", () => {
    expect(["fr", "fr-CA", "es", "vi", "ru", "pl", "nl", "sq"].map(decimalSeparator)).toEqual([",", ",", ",", ",", ",", ",", ",", ","]);
    expect(["en", "zh-CN", "ar", "he", "ta", "ms", "ko", "th", undefined, "not a tag!"].map(decimalSeparator)).toEqual([".", ".", ".", ".", ".", ".", ".", ".", ".", "."]);
  });

  it("reads a French amount with a decimal comma as A2J's number, and leaves the rest to A2J", () => {
    const read = (typed: string, language = "fr") => parseLooseNumber(readTypedNumber(typed, language));
    expect(read("1250,50")).toBe(1250.5);
    expect(read("1 250,50")).toBe(1250.5);
    expect(read("1\u202f250,50 $")).toBe(1250.5);
    expect(read("1.250,50")).toBe(1250.5);
    expect(read(",5")).toBe(0.5);
    expect(read("-3,25")).toBe(-3.25);
    // A point alone is read as A2J reads it: people type it so in French too.
    expect(read("1250.50")).toBe(1250.5);
    expect(read("1250")).toBe(1250);
    // Two commas, or letters: as typed, for A2J to refuse.
    expect(readTypedNumber("1,250,50", "fr")).toBe("1,250,50");
    expect(readTypedNumber("douze,5", "fr")).toBe("douze,5");
    // English keeps A2J's reading: the comma groups thousands.
    expect(read("1,250", "en")).toBe(1250);
  });

  it("shows a stored number back with the language's decimal sign", () => {
    expect(numberAsTyped("1250.5", "fr")).toBe("1250,5");
    expect(numberAsTyped("1250", "fr")).toBe("1250");
    expect(numberAsTyped("1250.5", "en")).toBe("1250.5");
  });
});

describe("digits of other scripts", () => {
  it("reads what a keyboard in the person's language types as Latin digits", async () => {
    const { latinDigits } = await import("./numbers");
    expect(latinDigits("١٢٣٤٥٦٧٨٩٠")).toBe("1234567890");
    expect(latinDigits("১২৩ and ۱۲۳ and ๑๒๓")).toBe("123 and 123 and 123");
    expect(latinDigits("0123456789")).toBe("0123456789");
    expect(parseLooseNumber(readTypedNumber("١٢٥٠,٥٠", "fr"))).toBe(1250.5);
  });
});
