/**
 * The CMS signature of a sealed PDF, as PAdES baseline B-B asks (ETSI EN 319 142-1, SubFilter
 * ETSI.CAdES.detached; CAdES signed attributes of ETSI EN 319 122-1): a detached SignedData over the PDF's byte
 * range, SHA-256, signed attributes content-type, message-digest and signing-certificate-v2 (the SHA-256 of the
 * signing certificate), and no signing-time attribute (the claimed time is the signature dictionary's /M).
 *
 * Built here with node-forge's ASN.1 writer and signed with node:crypto: @signpdf's P12Signer (forge's
 * pkcs7.createSignedData) writes only content-type, message-digest and signing-time, and forge's signer cannot
 * add signing-certificate-v2 (docs/decisions/0054-the-seal-and-the-certificate.md).
 */
import { createHash, createSign, type KeyObject } from "node:crypto";
import forge from "node-forge";
import { Signer } from "@signpdf/utils";

const { asn1 } = forge;
const T = asn1.Type;
const C = asn1.Class;

const OID = {
  data: "1.2.840.113549.1.7.1",
  signedData: "1.2.840.113549.1.7.2",
  contentType: "1.2.840.113549.1.9.3",
  messageDigest: "1.2.840.113549.1.9.4",
  signingCertificateV2: "1.2.840.113549.1.9.16.2.47",
  sha256: "2.16.840.1.101.3.4.2.1",
  rsaEncryption: "1.2.840.113549.1.1.1",
};

const seq = (items: forge.asn1.Asn1[]) => asn1.create(C.UNIVERSAL, T.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(C.UNIVERSAL, T.SET, true, items);
const oid = (id: string) => asn1.create(C.UNIVERSAL, T.OID, false, asn1.oidToDer(id).getBytes());
const octets = (bytes: Buffer) => asn1.create(C.UNIVERSAL, T.OCTETSTRING, false, bytes.toString("binary"));
const int = (n: number) => asn1.create(C.UNIVERSAL, T.INTEGER, false, asn1.integerToDer(n).getBytes());
const nul = () => asn1.create(C.UNIVERSAL, T.NULL, false, "");
const algorithm = (id: string) => seq([oid(id), nul()]);
const der = (node: forge.asn1.Asn1) => Buffer.from(asn1.toDer(node).getBytes(), "binary");

/** A certificate as DER bytes and as forge's ASN.1 tree. */
function certificateParts(certificate: Buffer) {
  const tree = asn1.fromDer(forge.util.createBuffer(certificate.toString("binary")));
  // Certificate ::= SEQUENCE { tbsCertificate, … }; TBSCertificate ::= SEQUENCE { [0] version, serialNumber, signature, issuer, … }
  const tbs = (tree.value as forge.asn1.Asn1[])[0]!;
  const fields = tbs.value as forge.asn1.Asn1[];
  const offset = fields[0]!.tagClass === C.CONTEXT_SPECIFIC ? 1 : 0;
  return { tree, serial: fields[offset]!, issuer: fields[offset + 2]! };
}

/**
 * SignedData (RFC 5652) for a detached signature of `content`: the signer's certificate first in `chain`, any
 * intermediate certificates after it; `key` the signer's private RSA key.
 */
export function cadesDetachedSignature(content: Buffer, key: KeyObject, chain: Buffer[]): Buffer {
  const [signer] = chain;
  if (!signer) throw new Error("No signing certificate");
  const { serial, issuer } = certificateParts(signer);
  const digest = createHash("sha256").update(content).digest();
  const certificateHash = createHash("sha256").update(signer).digest();
  const attributes = [
    seq([oid(OID.contentType), set([oid(OID.data)])]),
    seq([oid(OID.messageDigest), set([octets(digest)])]),
    // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2 }; ESSCertIDv2 ::= SEQUENCE { hashAlgorithm
    // DEFAULT sha256 (left out: DER omits defaults), certHash OCTET STRING } (no issuerSerial: EN 319 122-1 5.2.2.3).
    seq([oid(OID.signingCertificateV2), set([seq([seq([seq([octets(certificateHash)])])])])]),
  ];
  // The signature covers the attributes DER-encoded as a SET (RFC 5652 5.4), whose members DER sorts.
  const sorted = sortedSet(attributes);
  const signature = createSign("sha256").update(der(set(sorted))).sign(key);
  const signedAttrs = asn1.create(C.CONTEXT_SPECIFIC, 0, true, sorted);
  const signerInfo = seq([
    int(1),
    seq([issuer, serial]),
    algorithm(OID.sha256),
    signedAttrs,
    algorithm(OID.rsaEncryption),
    octets(signature),
  ]);
  const certificates = asn1.create(
    C.CONTEXT_SPECIFIC,
    0,
    true,
    chain.map((c) => certificateParts(c).tree),
  );
  const signedData = seq([int(1), set([algorithm(OID.sha256)]), seq([oid(OID.data)]), certificates, set([signerInfo])]);
  return der(seq([oid(OID.signedData), asn1.create(C.CONTEXT_SPECIFIC, 0, true, [signedData])]));
}

/** The members of a SET OF in DER order (by their encodings), as the signature was computed over. */
function sortedSet(items: forge.asn1.Asn1[]): forge.asn1.Asn1[] {
  return [...items].sort((a, b) => Buffer.compare(der(a), der(b)));
}

/** @signpdf's signer interface over the CAdES signature above. */
export class CadesSigner extends Signer {
  constructor(
    private readonly key: KeyObject,
    private readonly chain: Buffer[],
  ) {
    super();
  }

  override async sign(pdfBuffer: Buffer): Promise<Buffer> {
    return cadesDetachedSignature(pdfBuffer, this.key, this.chain);
  }
}
