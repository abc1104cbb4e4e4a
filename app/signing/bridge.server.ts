// Where the signing flow (this branch) meets the document half of signing (branch sign-docs: the marker,
// signedDocument, sealSignedPdf). Until that half is merged, this file holds a plain stand-in of each piece, so
// the flow runs end to end; the merge replaces the bodies below with calls into it (docs/decisions/0055).
import { createHash } from "node:crypto";
import { PDFDocument, StandardFonts } from "@cantoo/pdf-lib";
import type { Answers, Guide } from "~/a2j";

/** A place in a guide's documents where someone signs: "<Role> signature" and its "<Role> signature date". */
export interface SignatureMarker {
  /** The guide's name for who signs there ("User", "Other parent"). */
  role: string;
  signatureVar: string;
  dateVar: string | null;
}

const SIGNATURE = /^(.+?)\s+signature$/i;

/** The guide's signature places, in the order its variables are listed (the first is the person's own). */
export function signatureMarkers(guide: Guide): SignatureMarker[] {
  const out: SignatureMarker[] = [];
  for (const variable of Object.values(guide.vars)) {
    const match = variable.type === "Text" && !variable.repeating ? SIGNATURE.exec(variable.name.trim()) : null;
    if (!match) continue;
    const date = guide.vars[`${variable.name.trim().toLowerCase()} date`];
    out.push({ role: match[1]!, signatureVar: variable.name, dateVar: date ? date.name : null });
  }
  return out;
}

/** One signature as placed in the document and listed on the record page. */
export interface PlacedSignature {
  role: string;
  name: string;
  email: string;
  method: "typed" | "drawn";
  /** The drawn signature (PNG), when drawn. */
  drawing: Uint8Array | null;
  /** ISO time. */
  signedAt: string;
}

/** A2J's stored date form (MM/DD/YYYY) of an ISO time, in UTC. */
function a2jDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split("-");
  return `${m}/${d}/${y}`;
}

/** The answers with each signature place filled: "/s/ Name" and the day it was signed. */
export function answersWithSignatures(answers: Answers, markers: SignatureMarker[], signatures: PlacedSignature[]): Answers {
  const out: Answers = { ...answers };
  for (const marker of markers) {
    const signature = signatures.find((s) => s.role === marker.role);
    if (!signature) continue;
    out[marker.signatureVar.toLowerCase()] = { name: marker.signatureVar, type: "Text", repeating: false, values: [null, `/s/ ${signature.name}`] };
    if (marker.dateVar) out[marker.dateVar.toLowerCase()] = { name: marker.dateVar, type: "Text", repeating: false, values: [null, a2jDate(signature.signedAt)] };
  }
  return out;
}

export interface SigningRecord {
  title: string;
  signers: PlacedSignature[];
  /** SHA-256 (hex) of the document as signed, before the record page. */
  documentSha256: string;
}

export const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/** The signed document with its record page, sealed. Stand-in: the record page, without the digital seal. */
export async function sealSignedPdf(pdf: Uint8Array, record: SigningRecord): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  let y = 790;
  const line = (text: string, size = 11) => {
    page.drawText(text.replace(/[^\x20-\x7e]/g, "?"), { x: 50, y, size, font });
    y -= size + 8;
  };
  line("Signing record", 18);
  line(record.title);
  line(`SHA-256 of the document as signed: ${record.documentSha256.slice(0, 32)}`);
  line(`  ${record.documentSha256.slice(32)}`);
  for (const signer of record.signers) {
    y -= 8;
    line(`${signer.role}: ${signer.name} <${signer.email}>`);
    line(`Signed electronically (${signer.method}) on ${signer.signedAt}`);
  }
  return doc.save();
}
