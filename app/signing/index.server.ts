/**
 * Signing (issue 30): the module the signing pages build on. Decisions 0053 (the signature marker) and 0054 (the
 * seal and the certificate).
 *
 * - `signatureMarkers(guide)`: where a guide's signatures go, `{ variable, dateVariable, label, ownersOwn }[]`,
 *   the person's own first (a guide variable of type Text named "… signature"; its date "… signature date").
 * - `interviewSignatureMarkers(userId, interviewId, db)`: the same for a user's Completed interview (null when not
 *   theirs or not Completed).
 * - `interviewDocument(userId, interviewId, { signatures })` (app/documents) prints signatures in their places;
 *   without them every place prints a line to sign on ("________________").
 * - `signedDocument(ownerId, interviewId, signatures)`: the signed document with its record page, sealed
 *   (PAdES B-B); `signatures` are `{ variable, name, email, method: "typed" | "drawn", image?: PNG bytes,
 *   signedAt, address }`. A zip of the sealed PDF and the signed Word files when the guide makes Word files.
 * - `sealSignedPdf(pdf, record, certificate)`: the record page appended to any PDF, then sealed.
 * - `signingCertificate(db)`: the configured certificate (SIGNING_CERTIFICATE) or the self-signed one kept in the
 *   database; `prepareSigningCertificate` at start.
 */
export { signatureMarkers, type PlacedSignature, type SignatureMarker } from "~/documents/signatures";
export { interviewDocument, interviewDocumentParts, interviewSignatureMarkers } from "~/documents/documents.server";
export { prepareSigningCertificate, signingCertificate, type SigningCertificate, SIGNING_KEY_COLUMN } from "./certificate.server";
export { recordPage, recordWordsIn, sealSignedPdf, type RecordSigner, type SigningRecord } from "./seal.server";
export { type GivenSignature, signedDocument, type SignedDocument } from "./signed-document.server";
