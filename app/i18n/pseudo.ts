// The pseudo-language en-XA: every message of ours shows accented and about 40 % longer, inside ⟦ ⟧, so a page
// rendered in it shows at once which words are not in the catalogue (plain ASCII outside the brackets) and where
// a longer language would overflow. ICU syntax (placeholders, plurals, tags) is kept as it is.
import { type MessageFormatElement, parse, TYPE } from "@formatjs/icu-messageformat-parser";
import { printAST } from "@formatjs/icu-messageformat-parser/printer.js";

const ACCENTED: Record<string, string> = {
  a: "á", b: "ƀ", c: "ç", d: "ð", e: "é", f: "ƒ", g: "ĝ", h: "ĥ", i: "í", j: "ĵ", k: "ķ", l: "ĺ", m: "ɱ",
  n: "ñ", o: "ó", p: "þ", q: "ǫ", r: "ŕ", s: "š", t: "ţ", u: "ú", v: "ṽ", w: "ŵ", x: "ẋ", y: "ý", z: "ž",
  A: "Á", B: "Ɓ", C: "Ç", D: "Ð", E: "É", F: "Ƒ", G: "Ĝ", H: "Ĥ", I: "Í", J: "Ĵ", K: "Ķ", L: "Ĺ", M: "Ṁ",
  N: "Ñ", O: "Ó", P: "Þ", Q: "Ǫ", R: "Ŕ", S: "Š", T: "Ţ", U: "Ú", V: "Ṽ", W: "Ŵ", X: "Ẋ", Y: "Ý", Z: "Ž",
};

export const PSEUDO_OPEN = "⟦";
export const PSEUDO_CLOSE = "⟧";

function accent(text: string): string {
  let out = "";
  for (const char of text) out += ACCENTED[char] ?? char;
  // About 40 % longer: vowels doubled until the text is long enough (words stay readable).
  const extra = Math.round(text.replace(/\s/g, "").length * 0.4);
  let added = 0;
  return out.replace(/[áéíóúÁÉÍÓÚ]/g, (vowel) => (added++ < extra ? vowel + vowel : vowel)) + (added < extra ? "~".repeat(Math.min(extra - added, 12)) : "");
}

function transform(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    if (element.type === TYPE.literal) return { ...element, value: accent(element.value) };
    if (element.type === TYPE.plural || element.type === TYPE.select) {
      const options = Object.fromEntries(Object.entries(element.options).map(([name, option]) => [name, { ...option, value: transform(option.value) }]));
      return { ...element, options } as MessageFormatElement;
    }
    if (element.type === TYPE.tag) return { ...element, children: transform(element.children) };
    return element;
  });
}

/** An English message made pseudo-translated (its ICU syntax kept). */
export function pseudoMessage(message: string): string {
  return `${PSEUDO_OPEN}${printAST(transform(parse(message, { ignoreTag: false })))}${PSEUDO_CLOSE}`;
}
