/**
 * Word (.docx) templates, our addition for organisations that author in Word, filled with docxtemplater.
 * Tags are A2J variable names in braces, matched without regard to case:
 * - `{User name full TE}` prints the value, formatted by type like the text templates do (a repeating
 *   variable outside a loop prints "a, b and c");
 * - `{#Have job TF}…{/Have job TF}` keeps its content when the value is true (A2J's is-true), `{^…}` when not;
 * - `{#Item description TE}…{/Item description TE}` repeats its content for each value of a repeating
 *   variable, and `{#Item count NU}…{/Item count NU}` as many times as the number says; inside, repeating
 *   variables print the value of the current iteration.
 * A template with broken tags is an error value naming the tags, never a thrown exception.
 */
import { setWordLanguage } from "./word-language";
import Docxtemplater, { type DXT } from "docxtemplater";
import PizZip from "pizzip";
import type { Answers, DateLocale } from "~/a2j";
import { drawnSize, fillOf, fillText, type SignatureFill, type SignatureFills } from "./signatures";
import { operandValue, loopCount, variableText } from "./values";
import { drawnToken, placeDrawnSignatures } from "./word-signatures";

function lookup(answers: Answers, name: string) {
  const key = name.trim().toLowerCase();
  return Object.hasOwn(answers, key) ? answers[key] : undefined;
}

function isTrue(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === "") return false;
  return !(typeof v === "string" && v.trim().toLowerCase() === "false");
}

interface Iteration {
  __index: number;
}

function iterationOf(scope: unknown): number | undefined {
  return typeof scope === "object" && scope !== null && typeof (scope as Iteration).__index === "number" ? (scope as Iteration).__index : undefined;
}

function lastIndex(values: readonly unknown[]): number {
  for (let i = values.length - 1; i >= 1; i--) if (values[i] !== null && values[i] !== undefined && values[i] !== "") return i;
  return 0;
}

type DXTOptions = DXT.ConstructorOptions;

export type WordResult = { ok: true; bytes: Uint8Array } | { ok: false; error: string };

/** A .docx template filled with the answers. */
export function fillWordTemplate(template: Uint8Array, answers: Answers, dates?: DateLocale, lang?: string, fills?: SignatureFills): WordResult {
  let doc: Docxtemplater;
  // Drawn signatures, in the order their places are printed: each prints a token that becomes its picture.
  const drawn: Extract<SignatureFill, { kind: "drawn" }>[] = [];
  const signatureText = (fill: SignatureFill): string => {
    if (fill.kind !== "drawn") return fillText(fill);
    let n = drawn.indexOf(fill) + 1;
    if (!n) n = drawn.push(fill);
    return drawnToken(n);
  };
  try {
    doc = new Docxtemplater(new PizZip(template), {
      paragraphLoop: true,
      linebreaks: true,
      errorLogging: false,
      nullGetter: () => "",
      parser(tag: string, meta?: { tag?: { module?: string } }) {
        const name = tag.trim();
        const isSection = meta?.tag?.module === "loop";
        return {
          get(scope: unknown) {
            const index = iterationOf(scope);
            if (name === "." || name === "") return undefined;
            const v = lookup(answers, name);
            if (isSection) {
              if (index !== undefined) {
                // Inside a loop: a repeating variable is a condition on this iteration's value; others are
                // decided at the top level.
                return v?.repeating ? isTrue(v.values[index] ?? null) : undefined;
              }
              if (!v) return false;
              if (v.repeating) return Array.from({ length: lastIndex(v.values) }, (_, i): Iteration => ({ __index: i + 1 }));
              if (v.type === "Number") {
                const n = loopCount({ loopType: "variable", loopCounter: 0, loopVariable: v.name }, answers);
                return Array.from({ length: n }, (_, i): Iteration => ({ __index: i + 1 }));
              }
              return isTrue(operandValue(answers, name));
            }
            const fill = fillOf(fills, name);
            if (fill) return signatureText(fill);
            if (index !== undefined) return v?.repeating ? (variableText(answers, name, index, dates) ?? "") : undefined;
            return v ? (variableText(answers, name, undefined, dates) ?? "") : "";
          },
        };
      },
    } as unknown as DXTOptions);
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
  try {
    doc.render({});
    const zip = doc.getZip();
    placeDrawnSignatures(
      {
        read: (name) => zip.file(name)?.asText() ?? null,
        write: (name, text) => void zip.file(name, text),
        writeBytes: (name, bytes) => void zip.file(name, bytes),
        names: () => Object.keys(zip.files),
      },
      drawn.map((fill) => ({ fill, size: drawnSize(fill) })),
    );
    // The document's language (its guide's), said in its styles: spelling, a screen reader's voice, right to left.
    if (lang) setWordLanguage({ read: (name) => zip.file(name)?.asText() ?? null, write: (name, text) => void zip.file(name, text) }, lang);
    return { ok: true, bytes: new Uint8Array(zip.generate({ type: "uint8array", compression: "DEFLATE" })) };
  } catch (error) {
    return { ok: false, error: describe(error) };
  }
}

function describe(error: unknown): string {
  const e = error as { message?: string; properties?: { errors?: { properties?: { explanation?: string } }[] } };
  const details = e.properties?.errors?.map((x) => x.properties?.explanation).filter(Boolean) ?? [];
  return details.length ? details.join("; ") : (e.message ?? String(error));
}
