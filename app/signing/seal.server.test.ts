// The record page and the seal (issue 30, item 4), checked by poppler's pdfsig and OpenSSL, the way a reader of
// the file would check it: the signature valid over the whole file, PAdES B-B's attributes, and one changed
// byte makes it fail. Certificates from SIGNING_CERTIFICATE (PKCS#12) are read, or refused with the variable named.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "@cantoo/pdf-lib";
import { extractSignature } from "@signpdf/utils";
import forge from "node-forge";
import { describe, expect, it } from "vitest";
import { ConfigError } from "~/config.server";
import { certificateFromPem, configuredSigningCertificate, makeSelfSignedCertificate, readPkcs12, type SigningCertificate } from "./certificate.server";
import { recordTime, sealSignedPdf, type SigningRecord } from "./seal.server";

const dir = mkdtempSync(path.join(tmpdir(), "seal-"));
let files = 0;
const file = (bytes: Uint8Array, ext = "pdf") => {
  const name = path.join(dir, `${++files}.${ext}`);
  writeFileSync(name, bytes);
  return name;
};
/** pdfsig's report (it exits non-zero when a signature does not verify). */
const pdfsig = (pdf: Uint8Array) => {
  const run = spawnSync("pdfsig", [file(pdf)], { encoding: "utf8" });
  return `${run.stdout}${run.stderr}`;
};
const pdftotext = (pdf: Uint8Array) => execFileSync("pdftotext", [file(pdf), "-"]).toString();

async function document(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.setTitle("Letter of demand");
  doc.addPage([595, 842]).drawText("I ask you to pay me $250.00. /s/ Ada Lovelace", { x: 72, y: 700, size: 12 });
  return doc.save();
}

const selfSigned = (() => {
  const made = makeSelfSignedCertificate("Test Legal Help", new Date("2026-11-01T00:00:00Z"));
  return certificateFromPem(made.certificatePem, made.privateKeyPem);
})();

const record: SigningRecord = {
  title: "Letter of demand",
  signers: [
    { name: "Ada Lovelace", email: "ada@example.org", signedAt: new Date("2026-11-27T03:05:09Z"), address: "203.0.113.9", method: "typed", role: "User" },
    { name: "Charles Babbage", email: "cb@example.org", signedAt: new Date("2026-11-27T04:00:00Z"), address: null, method: "drawn", role: "Other parent" },
  ],
  timeZone: "Australia/Sydney",
  organisation: "Test Legal Help",
};

/** A CA and a certificate it issued, with the leaf's key, as a PKCS#12 file (3DES, as older tools write). */
function issuedPkcs12(password: string): Uint8Array {
  const ca = forge.pki.rsa.generateKeyPair(1024);
  const leaf = forge.pki.rsa.generateKeyPair(1024);
  const caCert = forge.pki.createCertificate();
  caCert.publicKey = ca.publicKey;
  caCert.serialNumber = "01";
  caCert.validity.notBefore = new Date("2026-01-01T00:00:00Z");
  caCert.validity.notAfter = new Date("2030-01-01T00:00:00Z");
  caCert.setSubject([{ name: "commonName", value: "Test Root CA" }]);
  caCert.setIssuer([{ name: "commonName", value: "Test Root CA" }]);
  caCert.setExtensions([{ name: "basicConstraints", cA: true }]);
  caCert.sign(ca.privateKey, forge.md.sha256.create());
  const cert = forge.pki.createCertificate();
  cert.publicKey = leaf.publicKey;
  cert.serialNumber = "02";
  cert.validity.notBefore = new Date("2026-01-01T00:00:00Z");
  cert.validity.notAfter = new Date("2030-01-01T00:00:00Z");
  cert.setSubject([{ name: "commonName", value: "Legal Aid Org document seal" }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.sign(ca.privateKey, forge.md.sha256.create());
  const p12 = forge.pkcs12.toPkcs12Asn1(leaf.privateKey, [cert, caCert], password, { algorithm: "3des" });
  return Buffer.from(forge.asn1.toDer(p12).getBytes(), "binary");
}

describe("the seal", () => {
  it("pdfsig: the signature is valid, ETSI.CAdES.detached with SHA-256, over the whole document", async () => {
    const sealed = await sealSignedPdf(await document(), record, selfSigned, new Date("2026-11-27T04:01:00Z"));
    const report = pdfsig(sealed);
    console.log(`pdfsig of a sealed document:\n${report}`);
    expect(report).toContain("Signature Validation: Signature is Valid.");
    expect(report).toContain("Total document signed");
    expect(report).toContain("Signature Type: ETSI.CAdES.detached");
    expect(report).toContain("Signing Hash Algorithm: SHA-256");
    expect(report).toContain("Signer Certificate Common Name: Test Legal Help document seal (self-signed)");
  });

  it("one changed byte inside the signed range breaks it", async () => {
    const sealed = Buffer.from(await sealSignedPdf(await document(), record, selfSigned));
    // A digit of the first page's size (outside the signature's own bytes): 595 becomes 695.
    const at = sealed.indexOf("595", sealed.indexOf("/MediaBox"));
    expect(at).toBeGreaterThan(0);
    const changed = Buffer.from(sealed);
    changed[at] = "6".charCodeAt(0);
    const report = pdfsig(changed);
    console.log(`pdfsig after one byte changed:\n${report}`);
    expect(report).toContain("Signature Validation: Digest Mismatch.");
    expect(report).not.toContain("Signature is Valid");
  });

  it("is PAdES B-B: signed attributes content-type, message-digest and signing-certificate-v2, no signing-time; OpenSSL verifies it", async () => {
    const sealed = Buffer.from(await sealSignedPdf(await document(), record, selfSigned));
    const { signature, signedData } = extractSignature(sealed);
    const cms = file(Buffer.from(signature, "binary"), "p7s");
    const printed = execFileSync("openssl", ["cms", "-cmsout", "-print", "-inform", "DER", "-in", cms]).toString();
    expect(printed).toMatch(/object: contentType \(1\.2\.840\.113549\.1\.9\.3\)/);
    expect(printed).toMatch(/object: messageDigest \(1\.2\.840\.113549\.1\.9\.4\)/);
    expect(printed).toMatch(/object: (id-smime-aa-signingCertificateV2|signingCertificateV2) \(1\.2\.840\.113549\.1\.9\.16\.2\.47\)/);
    expect(printed).not.toMatch(/signingTime/);
    // The certificate's SHA-256 is the one signing-certificate-v2 names.
    const certHash = createHash("sha256").update(selfSigned.chain[0]!).digest("hex").replace(/(..)/g, "$1").toUpperCase();
    expect(printed.replace(/[\s:-]/g, "").toUpperCase()).toContain(certHash.slice(0, 32));
    const verified = spawnSync("openssl", ["cms", "-verify", "-binary", "-inform", "DER", "-in", cms, "-content", file(signedData, "bin"), "-noverify", "-out", "/dev/null"], { encoding: "utf8" });
    expect(verified.stderr).toContain("Verification successful");
  });

  it("the record page: title, each signer, times with their zone, addresses, methods, the document's SHA-256, the organisation and the certificate", async () => {
    const pdf = await document();
    const sealed = await sealSignedPdf(pdf, record, selfSigned);
    expect((await PDFDocument.load(sealed)).getPageCount()).toBe(2);
    const text = pdftotext(sealed).replace(/\s+/g, " ");
    const hash = createHash("sha256").update(pdf).digest("hex");
    for (const line of [
      "Signing record",
      "Document: Letter of demand",
      "Signer 1 (User): Ada Lovelace",
      "Email: ada@example.org",
      `Signed at: ${recordTime(record.signers[0]!.signedAt, "Australia/Sydney")}`,
      "Signed from address: 203.0.113.9",
      "How they signed: typed their name",
      "Signer 2 (Other parent): Charles Babbage",
      "Signed from address: not known",
      "How they signed: drew their signature",
      `SHA-256 of the document as signed (the pages before this one) ${hash}`,
      "Organisation: Test Legal Help",
      "Sealed with the certificate: Test Legal Help document seal (self-signed)",
      "self-signed: made by this site, not by a certificate authority",
      `SHA-256 ${selfSigned.fingerprint.replace(/:/g, "").toLowerCase()}`,
    ]) expect(text).toContain(line);
    expect(recordTime(record.signers[0]!.signedAt, "Australia/Sydney")).toBe("November 27, 2026 at 2:05:09 PM GMT+11 (Australia/Sydney; 2026-11-27 03:05:09 UTC)");
  });

  it("a document made only of Word files: the record alone, sealed, giving each file's SHA-256", async () => {
    const word = new TextEncoder().encode("PK… a Word file");
    const sealed = await sealSignedPdf(null, { ...record, files: [{ name: "Letter.docx", bytes: word }] }, selfSigned);
    expect((await PDFDocument.load(sealed)).getPageCount()).toBe(1);
    const text = pdftotext(sealed).replace(/\s+/g, " ");
    expect(text).toContain(`SHA-256 of the file Letter.docx ${createHash("sha256").update(word).digest("hex")}`);
    expect(text).not.toContain("the pages before this one");
    expect(pdfsig(sealed)).toContain("Signature is Valid.");
  });

  it("times in English day first where the country writes dates so", () => {
    expect(recordTime(new Date("2026-11-27T03:05:09Z"), "Asia/Singapore", "en", "DMY")).toBe("27 November 2026 at 11:05:09 GMT+8 (Asia/Singapore; 2026-11-27 03:05:09 UTC)");
    expect(recordTime(new Date("2026-11-27T03:05:09Z"), "UTC", "en")).toBe("November 27, 2026 at 3:05:09 AM UTC");
  });

  it("in the document's language: a French record", async () => {
    const sealed = await sealSignedPdf(await document(), { ...record, lang: "fr" }, selfSigned);
    const text = pdftotext(sealed).replace(/\s+/g, " ");
    expect(text).toContain("Registre des signatures");
    expect(text).toContain("Signataire 1 (User) : Ada Lovelace".replace(" :", ":"));
    expect(text).toContain("autosigné : créé par ce site, et non par une autorité de certification");
    expect(text).toContain("27 novembre 2026");
  });
});

describe("the organisation's certificate (SIGNING_CERTIFICATE)", () => {
  const p12 = issuedPkcs12("correct horse");

  it("is read from a file or from base64, its chain kept, and seals documents pdfsig validates", async () => {
    const fromFile = configuredSigningCertificate({ SIGNING_CERTIFICATE: file(p12, "p12"), SIGNING_CERTIFICATE_PASSWORD: "correct horse" })!;
    expect(fromFile).toMatchObject({ subject: "Legal Aid Org document seal", issuer: "Test Root CA", selfSigned: false });
    expect(fromFile.chain).toHaveLength(2);
    const fromBase64 = configuredSigningCertificate({ SIGNING_CERTIFICATE: Buffer.from(p12).toString("base64"), SIGNING_CERTIFICATE_PASSWORD: "correct horse" })!;
    expect(fromBase64.fingerprint).toBe(fromFile.fingerprint);
    const sealed = await sealSignedPdf(await document(), record, fromFile);
    const report = pdfsig(sealed);
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Signer Certificate Common Name: Legal Aid Org document seal");
    const text = pdftotext(sealed).replace(/\s+/g, " ");
    expect(text).toContain("issued by Test Root CA");
    expect(text).not.toContain("self-signed");
  });

  it("unset: none (the self-signed one is used)", () => {
    expect(configuredSigningCertificate({})).toBeNull();
  });

  it("a wrong password, a file that is not PKCS#12 or is not there stops the start, naming the variable", () => {
    const refusal = (env: Record<string, string>) => {
      try {
        configuredSigningCertificate(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error("accepted");
    };
    expect(refusal({ SIGNING_CERTIFICATE: file(p12, "p12"), SIGNING_CERTIFICATE_PASSWORD: "wrong" })).toMatch(/^Invalid configuration:\n {2}- SIGNING_CERTIFICATE_PASSWORD: .*the password does not open it/);
    expect(refusal({ SIGNING_CERTIFICATE: file(new TextEncoder().encode("not a certificate at all"), "p12") })).toMatch(/- SIGNING_CERTIFICATE: .*it is not a PKCS#12 file/);
    expect(refusal({ SIGNING_CERTIFICATE: path.join(dir, "missing.p12") })).toMatch(/- SIGNING_CERTIFICATE: .*the file cannot be read \(ENOENT\)/);
  });

  it("an EC key is refused: only RSA keys seal", () => {
    const ec = spawnSync("sh", ["-c", `cd ${dir} && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ec.key -out ec.crt -subj /CN=EC -days 2 2>/dev/null && openssl pkcs12 -export -inkey ec.key -in ec.crt -out ec.p12 -passout pass:pw && base64 -w0 ec.p12`], { encoding: "utf8" });
    expect(() => readPkcs12(Buffer.from(ec.stdout, "base64"), "pw")).toThrow(/not an RSA key|cannot be read|not a PKCS#12/);
  });
});

export type { SigningCertificate };
