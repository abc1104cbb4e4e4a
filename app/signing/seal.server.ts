/**
 * The record of a signed document and its seal (issue 30, item 4; docs/decisions/0054-the-seal-and-the-certificate.md).
 *
 * `sealSignedPdf(pdf, record)`: a last page, "Signing record", is appended to the signed PDF (the document's
 * title, each signer's name, email, time with its time zone, the address they signed from and how they signed,
 * the SHA-256 of the document as signed, that is of the bytes handed in, the organisation and the certificate
 * that seals it), and the whole file is then sealed with a PDF digital signature: PAdES baseline B-B
 * (SubFilter ETSI.CAdES.detached, SHA-256, signing-certificate-v2; app/signing/cms.server.ts), placed by
 * @signpdf/signpdf into a placeholder written here with pdf-lib. A viewer (or `pdfsig`) shows the signature
 * valid, over the whole document; one changed byte breaks it.
 */
import { createHash } from "node:crypto";
import { PDFDocument, PDFHexString, PDFInvalidObject, PDFName, PDFNumber, PDFString, type PDFArray, type PDFDict } from "@cantoo/pdf-lib";
import { SignPdf } from "@signpdf/signpdf";
import { DEFAULT_BYTE_RANGE_PLACEHOLDER, SUBFILTER_ETSI_CADES_DETACHED } from "@signpdf/utils";
import { config } from "~/config.server";
import type { Block, TextDocument } from "~/documents/layout";
import { appendWithStructure, finishStructure, structureMerge } from "~/documents/merge.server";
import { primaryCoverage } from "~/documents/fonts.server";
import { textDocumentToPdf } from "~/documents/text-pdf.server";
import { findLanguage } from "~/i18n/languages";
import { translator } from "~/i18n/translator";
import { SITE_NAME } from "~/ui/page-title";
import { CadesSigner } from "./cms.server";
import type { SigningCertificate } from "./certificate.server";

export interface RecordSigner {
  name: string;
  email: string;
  signedAt: Date;
  /** The address they signed from (the client address as app/security reads it); null when unknown. */
  address: string | null;
  method: "typed" | "drawn";
  /** Whose signature it is, the marker's label ("User", "Other parent"). */
  role?: string;
}

export interface SigningRecord {
  /** The document's title ("Letter of demand"). */
  title: string;
  signers: RecordSigner[];
  /** Files signed with the PDF but not part of it (a Word document): each named with its SHA-256. */
  files?: { name: string; bytes: Uint8Array }[];
  /** The organisation (the site's name by default). */
  organisation?: string;
  /** IANA zone the times are written in (TIME_ZONE by default); UTC is always given as well. */
  timeZone?: string;
  /** BCP 47 language of the page (its words from the catalogues, unless `words` are given). */
  lang?: string;
  /** The country's order of dates ("DMY": "27 November 2026" in English); MDY by default. */
  dateOrder?: "DMY" | "MDY";
  words?: RecordWords;
}

/** The record page's words (English by default; the catalogues' documents.record.* in the document's language: recordWordsIn). */
export interface RecordWords {
  title: string;
  intro: string;
  document: string;
  signer(number: number): string;
  email: string;
  time: string;
  address: string;
  unknownAddress: string;
  method: string;
  typed: string;
  drawn: string;
  hash: string;
  file(name: string): string;
  organisation: string;
  sealedWith: string;
  selfSigned: string;
  issuedBy(issuer: string): string;
}

/** The words in a language from the catalogues (app/i18n), or English's when the language has none or the font cannot draw them. */
export function recordWordsIn(lang: string): RecordWords {
  const language = findLanguage(lang) ?? findLanguage("en")!;
  const t = translator(language.code);
  const words: RecordWords = {
    title: t.t("documents.record.title"),
    intro: t.t("documents.record.intro"),
    document: t.t("documents.record.document"),
    signer: (number) => t.t("documents.record.signer", { number }),
    email: t.t("documents.record.email"),
    time: t.t("documents.record.time"),
    address: t.t("documents.record.address"),
    unknownAddress: t.t("documents.record.unknownAddress"),
    method: t.t("documents.record.method"),
    typed: t.t("documents.record.typed"),
    drawn: t.t("documents.record.drawn"),
    hash: t.t("documents.record.hash"),
    file: (name) => t.t("documents.record.file", { name }),
    organisation: t.t("documents.record.organisation"),
    sealedWith: t.t("documents.record.sealedWith"),
    selfSigned: t.t("documents.record.selfSigned"),
    issuedBy: (issuer) => t.t("documents.record.issuedBy", { issuer }),
  };
  const drawn = primaryCoverage("sans", "regular");
  const drawable = (text: string) => [...text].every((char) => drawn?.has(char.codePointAt(0)!) ?? false);
  const texts = Object.values(words).map((w) => (typeof w === "function" ? w(1) : w));
  return language.code === "en" || texts.every(drawable) ? words : recordWordsIn("en");
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

/**
 * A moment in the zone, and in UTC: "27 November 2026 at 14:05:09 GMT+11 (Australia/Sydney; 2026-11-27 03:05:09
 * UTC)". English is written day first where the country writes dates so (`order` "DMY").
 */
export function recordTime(at: Date, timeZone: string, lang = "en", order: "DMY" | "MDY" = "MDY"): string {
  let local: string;
  const locale = order === "DMY" && /^en(-US)?$/i.test(lang) ? "en-GB" : lang;
  try {
    local = new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "long", timeZone }).format(at);
  } catch {
    local = new Intl.DateTimeFormat("en", { dateStyle: "long", timeStyle: "long", timeZone: "UTC" }).format(at);
  }
  const utc = `${at.toISOString().slice(0, 19).replace("T", " ")} UTC`;
  return timeZone === "UTC" || timeZone === "Etc/UTC" ? `${local}` : `${local} (${timeZone}; ${utc})`;
}

/** The record page as a text document (laid out like the documents, tagged). */
export function recordPage(record: SigningRecord, documentHash: string | null, certificate: Pick<SigningCertificate, "subject" | "issuer" | "fingerprint" | "selfSigned">): TextDocument {
  const w = record.words ?? recordWordsIn(record.lang ?? "en");
  const zone = record.timeZone ?? config().TIME_ZONE;
  const p = (text: string, opts: { bold?: boolean; indent?: number; mono?: boolean } = {}): Block => ({
    kind: "paragraph",
    runs: [{ text, ...(opts.bold ? { bold: true } : {}), ...(opts.mono ? { font: "mono" as const } : {}) }],
    align: "left",
    indent: opts.indent ?? 0,
    size: 12,
  });
  const field = (label: string, value: string, indent = 1): Block => ({
    kind: "paragraph",
    runs: [{ text: `${label}: `, bold: true }, { text: value }],
    align: "left",
    indent,
    size: 12,
  });
  const blocks: Block[] = [
    { kind: "heading", text: w.title, level: 1, size: 24, underline: false },
    p(w.intro),
    field(w.document, record.title, 0),
  ];
  record.signers.forEach((s, i) => {
    // Each signer a heading of its own: a screen reader can move from one to the next.
    blocks.push({ kind: "heading", text: `${w.signer(i + 1)}${s.role ? ` (${s.role})` : ""}: ${s.name}`, level: 2, size: 16, underline: false });
    blocks.push(field(w.email, s.email));
    blocks.push(field(w.time, recordTime(s.signedAt, zone, record.lang, record.dateOrder)));
    blocks.push(field(w.address, s.address ?? w.unknownAddress));
    blocks.push(field(w.method, s.method === "drawn" ? w.drawn : w.typed));
  });
  // A Word-only document has no PDF pages before the record: its files' hashes stand for it.
  if (documentHash) blocks.push(p(w.hash, { bold: true }), p(documentHash, { mono: true, indent: 1 }));
  for (const file of record.files ?? []) blocks.push(p(w.file(file.name), { bold: true }), p(sha256(file.bytes), { mono: true, indent: 1 }));
  blocks.push(field(w.organisation, record.organisation ?? SITE_NAME, 0));
  blocks.push(p(`${w.sealedWith}: ${certificate.subject}`, { bold: true }));
  blocks.push(p(certificate.selfSigned ? w.selfSigned : w.issuedBy(certificate.issuer), { indent: 1 }));
  // The certificate's SHA-256, written as the document's is (a reader compares it with the certificate the seal shows).
  blocks.push(p(`SHA-256 ${certificate.fingerprint.replace(/:/g, "").toLowerCase()}`, { mono: true, indent: 1 }));
  return { title: w.title, font: "sans", size: 12, pageSize: "a4", blocks, header: [], footer: [], hideHeaderOnFirstPage: false, hideFooterOnFirstPage: false };
}

/** Room for the CMS signature: the certificates and 4 kB for the rest (the signature, attributes, structure). */
function signatureRoom(certificate: SigningCertificate): number {
  return certificate.chain.reduce((sum, c) => sum + c.length, 0) + 4096;
}

/**
 * The signature field and its dictionary, with @signpdf's placeholders (/ByteRange and /Contents), on the
 * record page: an invisible widget (the record page is the visible part).
 */
function addPlaceholder(doc: PDFDocument, certificate: SigningCertificate, signingTime: Date, organisation: string) {
  const context = doc.context;
  const page = doc.getPages().at(-1)!;
  const byteRange = context.obj([0, PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER), PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER), PDFName.of(DEFAULT_BYTE_RANGE_PLACEHOLDER)]);
  const signature = context.obj({
    Type: "Sig",
    Filter: "Adobe.PPKLite",
    SubFilter: SUBFILTER_ETSI_CADES_DETACHED,
    ByteRange: byteRange,
    Contents: PDFHexString.of("0".repeat(signatureRoom(certificate) * 2)),
    Reason: PDFString.of("Signing record: sealed by the organisation"),
    Name: PDFHexString.fromText(organisation),
    M: PDFString.fromDate(signingTime),
    Prop_Build: { Filter: { Name: "Legal Self-Help" } },
  });
  // Written as raw bytes, so that the placeholders stay exactly as @signpdf looks for them.
  const bytes = new Uint8Array(signature.sizeInBytes());
  signature.copyBytesInto(bytes, 0);
  const signatureRef = context.register(PDFInvalidObject.of(bytes));
  const widget = context.obj({
    Type: "Annot",
    Subtype: "Widget",
    FT: "Sig",
    Rect: [0, 0, 0, 0],
    V: signatureRef,
    T: PDFString.of("Seal"),
    // Hidden: an invisible signature (the record page is what people read); it stays out of the reading order.
    F: 2,
    P: page.ref,
  });
  const widgetRef = context.register(widget);
  const annots = page.node.lookup(PDFName.of("Annots")) as PDFArray | undefined;
  if (annots && "push" in annots) annots.push(widgetRef);
  else page.node.set(PDFName.of("Annots"), context.obj([widgetRef]));
  const existing = doc.catalog.lookup(PDFName.of("AcroForm")) as PDFDict | undefined;
  if (existing && "set" in existing) {
    existing.set(PDFName.of("SigFlags"), PDFNumber.of(3));
    const fields = existing.lookup(PDFName.of("Fields")) as PDFArray | undefined;
    if (fields && "push" in fields) fields.push(widgetRef);
    else existing.set(PDFName.of("Fields"), context.obj([widgetRef]));
  } else {
    doc.catalog.set(PDFName.of("AcroForm"), context.obj({ SigFlags: 3, Fields: [widgetRef] }));
  }
}

/**
 * The signed PDF with its record page, sealed. `pdf` is the document as signed: its SHA-256 is the one on the
 * record (null: the document is only Word files, whose hashes the record lists). Throws when the PDF cannot be read or sealed (the caller reports it).
 */
export async function sealSignedPdf(pdf: Uint8Array | null, record: SigningRecord, certificate: SigningCertificate, now: Date = new Date()): Promise<Uint8Array> {
  const hash = pdf ? sha256(pdf) : null;
  const organisation = record.organisation ?? SITE_NAME;
  const doc = pdf ? await PDFDocument.load(pdf, { updateMetadata: false }) : null;
  const structure = structureMerge();
  // The document's own pages keep their tags: the document is merged into a new one with the record page.
  const out = await PDFDocument.create({ updateMetadata: false });
  if (doc) appendWithStructure(out, doc, structure);
  const page = await PDFDocument.load(await textDocumentToPdf(recordPage(record, hash, certificate), { title: record.title, lang: record.lang ?? "en" }));
  appendWithStructure(out, page, structure);
  finishStructure(out, structure);
  out.setTitle(doc?.getTitle() ?? record.title, { showInWindowTitleBar: true });
  out.setLanguage(record.lang ?? "en");
  out.setCreator("Legal Self-Help");
  out.setProducer("Legal Self-Help (pdfkit, pdf-lib, @signpdf)");
  out.setCreationDate(now);
  out.setModificationDate(now);
  addPlaceholder(out, certificate, now, organisation);
  const prepared = await out.save({ useObjectStreams: false });
  const sealed = await new SignPdf().sign(Buffer.from(prepared), new CadesSigner(certificate.key, certificate.chain), now);
  return new Uint8Array(sealed.buffer, sealed.byteOffset, sealed.byteLength);
}
