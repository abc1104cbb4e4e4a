/**
 * A signed document (issue 30, item 2's document half): made from the same answers as the unsigned one, by
 * app/documents' own assembly, with each signature in its place and its date in its date's place; then the
 * record page and the seal (seal.server.ts). The signed file is always a sealed PDF; when the guide also makes
 * Word documents, the download is a zip of the sealed PDF and the signed Word files, whose SHA-256 the sealed
 * record lists (docs/decisions/0054-the-seal-and-the-certificate.md).
 */
import { createHash } from "node:crypto";
import type { Db } from "../../db/database";
import { interviewDocumentParts, zipEntryNames, zipFiles } from "~/documents/documents.server";
import type { PlacedSignature } from "~/documents/signatures";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { type SigningCertificate, signingCertificate } from "./certificate.server";
import { type RecordSigner, sealSignedPdf } from "./seal.server";

/** A signature as given on the signing page, with where it was given from (for the record). */
export interface GivenSignature extends PlacedSignature {
  /** The client address it was signed from (app/security's reading of the request); null when unknown. */
  address: string | null;
}

export type SignedDocument =
  | {
      kind: "file";
      bytes: Uint8Array;
      contentType: "application/pdf" | "application/zip";
      fileName: string;
      /** SHA-256 (hex) of the file handed out: the sealed PDF, or the zip. */
      sha256: string;
      /** SHA-256 (hex) of the document as signed, before its record page (what the record states). */
      documentSha256: string | null;
      issueId: number;
      language: string | null;
    }
  | { kind: "not-found" }
  | { kind: "unavailable"; message: string };

export interface SignedDocumentOptions {
  db?: Db;
  storage?: AttachmentStorage;
  /** The certificate to seal with (the configured or self-signed one by default). */
  certificate?: SigningCertificate;
  /** The seal's time (now by default). */
  now?: Date;
  /** The zone the record's times and the signatures' days are written in (TIME_ZONE by default). */
  timeZone?: string;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * The interview's document signed by these signatures, with its record page, sealed. `userId` is the
 * interview's owner (the person who asked for the signatures, whoever signs). Signatures for places the guide
 * does not have are left out of the document but stay on the record.
 */
export async function signedDocument(userId: string, interviewId: string, signatures: GivenSignature[], options: SignedDocumentOptions = {}): Promise<SignedDocument> {
  const parts = await interviewDocumentParts(userId, interviewId, { db: options.db, storage: options.storage, signatures, timeZone: options.timeZone });
  if (parts.kind !== "parts") return parts;
  const certificate = options.certificate ?? (await signingCertificate(options.db));
  const label = (variable: string) => parts.markers.find((m) => m.variable.toLowerCase() === variable.trim().toLowerCase())?.label;
  const signers: RecordSigner[] = signatures.map((s) => ({ name: s.name.replace(/\s+/g, " ").trim(), email: s.email, signedAt: s.signedAt, address: s.address, method: s.method, role: label(s.variable) }));
  // The files beside the PDF, named on the record as the zip names them (the sealed PDF comes first in it).
  const names = zipEntryNames([{ name: parts.base, ext: "pdf" }, ...parts.files]).slice(1);
  const sealed = await sealSignedPdf(parts.pdf, { title: parts.title, signers, files: parts.files.map((f, i) => ({ name: names[i]!, bytes: f.bytes })), lang: parts.lang, dateOrder: parts.dates.order, timeZone: options.timeZone }, certificate, options.now);
  const documentSha256 = parts.pdf ? sha256(parts.pdf) : null;
  if (!parts.files.length) {
    return { kind: "file", bytes: sealed, contentType: "application/pdf", fileName: `${parts.base}.pdf`, sha256: sha256(sealed), documentSha256, issueId: parts.issueId, language: parts.language };
  }
  const zip = zipFiles([{ name: parts.base, ext: "pdf", bytes: sealed }, ...parts.files]);
  return { kind: "file", bytes: zip, contentType: "application/zip", fileName: `${parts.base}.zip`, sha256: sha256(zip), documentSha256, issueId: parts.issueId, language: parts.language };
}
