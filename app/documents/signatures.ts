/**
 * Where signatures go in a guide's documents (issue 30; docs/decisions/0053-the-signature-marker.md), and what
 * each place prints. Pure: no I/O, no clock.
 *
 * The marker: a guide variable of type Text whose name ends in " signature" (any case: "User signature",
 * "Other parent signature") is where a signature goes; the variable named "<that name> date" ("User signature
 * date"), when the guide has it, is where its date goes. The first marker in the guide's variable order is the
 * person's own; the others are other signers', named by the marker's label ("Other parent"). Every template
 * kind places variables, so the marker works in all three: a text template's `<a2j-variable name="User
 * signature">`, an overlay PDF's box mapped to the variable, a Word template's `{User signature}`.
 */
import type { Guide } from "~/a2j";

export interface SignatureMarker {
  /** The variable's name as the guide writes it ("User signature"). */
  variable: string;
  /** The date's variable ("User signature date"), or null when the guide has none. */
  dateVariable: string | null;
  /** Who signs there, from the name ("User", "Other parent"). */
  label: string;
  /** The first marker of the guide: the person's own signature. */
  ownersOwn: boolean;
}

const MARKER = /^(.*\S)\s+signature$/i;

/** The guide's signature places in variable order; the first is the person's own. */
export function signatureMarkers(guide: Pick<Guide, "vars">): SignatureMarker[] {
  const out: SignatureMarker[] = [];
  for (const v of Object.values(guide.vars)) {
    if (v.type !== "Text" || v.repeating) continue;
    const m = MARKER.exec(v.name.trim());
    if (!m) continue;
    const date = guide.vars[`${v.name.trim().toLowerCase()} date`];
    out.push({
      variable: v.name.trim(),
      dateVariable: date && (date.type === "Text" || date.type === "Date") && !date.repeating ? date.name.trim() : null,
      label: m[1]!.trim(),
      ownersOwn: out.length === 0,
    });
  }
  return out;
}

/** A signature given on the signing page, for its marker's variable. */
export interface PlacedSignature {
  /** The marker's variable (any case). */
  variable: string;
  /** The signer's full name, as typed. */
  name: string;
  email: string;
  method: "typed" | "drawn";
  /** The drawn signature, a PNG (with `method: "drawn"`). */
  image?: Uint8Array;
  signedAt: Date;
}

/**
 * What a signature place or its date prints, worked out before layout (dates in the document's language and
 * the organisation's time zone): `blank`, a line to sign on; `typed`, "/s/ Full Name" with a line under it;
 * `drawn`, the image with the same line under it; `date`, the day it was signed.
 */
export type SignatureFill =
  | { kind: "blank" }
  | { kind: "typed"; signature: string; caption: string }
  | { kind: "drawn"; png: Uint8Array; width: number; height: number; alt: string; caption: string }
  | { kind: "date"; text: string };

/** Fills keyed by lower-cased variable name. */
export type SignatureFills = ReadonlyMap<string, SignatureFill>;

export const SIGNATURE_LINE = "________________";

/** The words a signature prints with, in the document's language (app/i18n: documents.signature.*). */
export interface SignatureWords {
  /** "Signed electronically by {name} on {date}". */
  signedBy(name: string, date: string): string;
  /** "Signature of {name}": a drawn signature's alternative text. */
  drawnAlt(name: string): string;
}

export const englishSignatureWords: SignatureWords = {
  signedBy: (name, date) => `Signed electronically by ${name} on ${date}`,
  drawnAlt: (name) => `Signature of ${name}`,
};

/** A PNG's width and height from its header, or null when the bytes are not a PNG. */
export function pngSize(png: Uint8Array): { width: number; height: number } | null {
  const signature = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (png.length < 33 || signature.some((b, i) => png[i] !== b)) return null;
  if (String.fromCharCode(...png.subarray(12, 16)) !== "IHDR") return null;
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  const width = view.getUint32(16);
  const height = view.getUint32(20);
  return width > 0 && height > 0 && width <= 10000 && height <= 10000 ? { width, height } : null;
}

/**
 * Every marker's fill: its signature when one is given (a drawn one without a readable PNG prints as typed),
 * else a line to sign on; its date the day it was signed, else a line. `day` writes a moment as the document
 * writes dates ("27 November 2026").
 */
export function signatureFills(markers: readonly SignatureMarker[], signatures: readonly PlacedSignature[], day: (at: Date) => string, words: SignatureWords = englishSignatureWords): Map<string, SignatureFill> {
  const fills = new Map<string, SignatureFill>();
  for (const marker of markers) {
    const key = marker.variable.toLowerCase();
    const signed = signatures.find((s) => s.variable.trim().toLowerCase() === key);
    const dateKey = marker.dateVariable?.toLowerCase();
    if (!signed) {
      fills.set(key, { kind: "blank" });
      if (dateKey) fills.set(dateKey, { kind: "blank" });
      continue;
    }
    const name = signed.name.replace(/\s+/g, " ").trim();
    const date = day(signed.signedAt);
    const caption = words.signedBy(name, date);
    const size = signed.method === "drawn" && signed.image ? pngSize(signed.image) : null;
    if (size && signed.image) fills.set(key, { kind: "drawn", png: signed.image, ...size, alt: words.drawnAlt(name), caption });
    else fills.set(key, { kind: "typed", signature: `/s/ ${name}`, caption });
    if (dateKey) fills.set(dateKey, { kind: "date", text: date });
  }
  return fills;
}

/** A fill as one text (Word without a picture, overlay boxes, comparisons): the signature line and its caption. */
export function fillText(fill: SignatureFill): string {
  switch (fill.kind) {
    case "blank":
      return SIGNATURE_LINE;
    case "typed":
      return `${fill.signature}\n${fill.caption}`;
    case "drawn":
      return `[${fill.alt}]\n${fill.caption}`;
    case "date":
      return fill.text;
  }
}

/** The fill of a variable, if it is a signature place or its date. */
export function fillOf(fills: SignatureFills | undefined, name: string): SignatureFill | undefined {
  return fills?.get(name.trim().toLowerCase());
}

/** A drawn signature's size on paper, in points: at most 180 × 54, its shape kept. */
export function drawnSize(fill: { width: number; height: number }, maxWidth = 180, maxHeight = 54): { width: number; height: number } {
  const scale = Math.min(maxWidth / fill.width, maxHeight / fill.height);
  return { width: fill.width * scale, height: fill.height * scale };
}
