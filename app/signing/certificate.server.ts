/**
 * The certificate that seals signed documents (docs/decisions/0054-the-seal-and-the-certificate.md): the
 * organisation's, from SIGNING_CERTIFICATE (a PKCS#12 file's path, or the file in base64) and
 * SIGNING_CERTIFICATE_PASSWORD; without one, a self-signed certificate this site makes at its first start and
 * keeps in the database (`signing_certificates`), its private key sealed at rest like answers. Several instances
 * starting at once agree: the first insert wins, every one reads the row back.
 */
import { createHash, createPrivateKey, generateKeyPairSync, type KeyObject, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import forge from "node-forge";
import type { Db } from "../../db/database";
import { ConfigError, config } from "~/config.server";
import { database } from "~/db.server";
import { configuredKeyring, type DataKeyring, openText, sealText } from "~/security/data-encryption.server";
import type { SealedTextColumn } from "~/security/sealed-columns.server";
import { SITE_NAME } from "~/ui/page-title";

export interface SigningCertificate {
  /** The private key (RSA). */
  key: KeyObject;
  /** DER certificates: the signer's first, then any others the PKCS#12 file holds (its chain). */
  chain: Buffer[];
  /** Made by this site, not by a certificate authority. */
  selfSigned: boolean;
  /** The signer certificate's subject common name (or its whole subject). */
  subject: string;
  /** Its issuer's common name. */
  issuer: string;
  /** SHA-256 of the signer certificate, upper-case hex in pairs ("AB:CD:…"). */
  fingerprint: string;
  notAfter: Date;
}

const SELF_SIGNED_ID = "self-signed";

/** Where the self-signed certificate's private key lives, sealed: bound to its row. */
export const signingKeyPlace = (id: string) => `signing_certificates.private_key:${id}`;

/** The sealed private keys, for `cli db rotate-key`. */
export const SIGNING_KEY_COLUMN: SealedTextColumn = { table: "signing_certificates", column: "private_key", key: "id", place: signingKeyPlace };

const der = (cert: forge.pki.Certificate) => Buffer.from(forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes(), "binary");

function commonName(name: forge.pki.Certificate["subject"]): string {
  const cn = name.getField("CN");
  if (cn && typeof cn.value === "string") return cn.value;
  return name.attributes.map((a) => `${a.shortName ?? a.name ?? a.type}=${a.value}`).join(", ");
}

function describe(cert: forge.pki.Certificate, key: KeyObject, chain: Buffer[], selfSigned: boolean): SigningCertificate {
  const hash = createHash("sha256").update(chain[0]!).digest("hex").toUpperCase();
  return {
    key,
    chain,
    selfSigned,
    subject: commonName(cert.subject),
    issuer: commonName(cert.issuer),
    fingerprint: hash.match(/../g)!.join(":"),
    notAfter: cert.validity.notAfter,
  };
}

/**
 * A PKCS#12 file read with its password: its RSA private key and the certificate of that key first. Throws an
 * Error saying what is wrong (not PKCS#12, the password, no key, a key that is not RSA, no certificate for it).
 */
export function readPkcs12(bytes: Uint8Array, password: string): SigningCertificate {
  let p12: forge.pkcs12.Pkcs12Pfx;
  try {
    p12 = forge.pkcs12.pkcs12FromAsn1(forge.asn1.fromDer(forge.util.createBuffer(Buffer.from(bytes).toString("binary"))), false, password);
  } catch (error) {
    const message = String((error as Error).message ?? error);
    if (/mac|password|decrypt|invalid/i.test(message) && !/Too few bytes|parse/i.test(message)) throw new Error("the password does not open it");
    throw new Error(`it is not a PKCS#12 file (${message})`);
  }
  const bags = [
    ...(p12.getBags({ bagType: forge.pki.oids.pkcs8ShroudedKeyBag! })[forge.pki.oids.pkcs8ShroudedKeyBag!] ?? []),
    ...(p12.getBags({ bagType: forge.pki.oids.keyBag! })[forge.pki.oids.keyBag!] ?? []),
  ];
  if (!bags.length) throw new Error("it holds no private key");
  const forgeKey = bags.find((bag) => bag.key)?.key as forge.pki.rsa.PrivateKey | undefined;
  if (!forgeKey) throw new Error("its private key is not an RSA key (only RSA keys can seal documents)");
  let certs: forge.pki.Certificate[];
  try {
    certs = (p12.getBags({ bagType: forge.pki.oids.certBag! })[forge.pki.oids.certBag!] ?? []).map((bag) => bag.cert).filter((c): c is forge.pki.Certificate => !!c);
  } catch (error) {
    throw new Error(`its certificate cannot be read (${(error as Error).message})`);
  }
  const own = certs.find((c) => {
    const pub = c.publicKey as forge.pki.rsa.PublicKey;
    return pub.n?.equals(forgeKey.n) && pub.e?.equals(forgeKey.e);
  });
  if (!own) throw new Error("it holds no certificate for its private key");
  const key = createPrivateKey(forge.pki.privateKeyToPem(forgeKey));
  const chain = [der(own), ...certs.filter((c) => c !== own).map(der)];
  const issuedBySelf = own.isIssuer(own);
  return describe(own, key, chain, issuedBySelf);
}

/** SIGNING_CERTIFICATE's bytes: the file it names, or itself in base64. */
function configuredBytes(value: string): Uint8Array {
  const text = value.trim();
  if (/^[A-Za-z0-9+/=\s]+$/.test(text) && text.length >= 64 && !/[/\\.]/.test(text.slice(0, 1))) {
    const bytes = Buffer.from(text.replace(/\s+/g, ""), "base64");
    if (bytes[0] === 0x30) return bytes;
  }
  try {
    return readFileSync(text);
  } catch (error) {
    throw new Error(`the file cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}

/**
 * The organisation's certificate from the environment, or null when SIGNING_CERTIFICATE is unset. A file that
 * cannot be used throws a ConfigError naming the variable (the server does not start).
 */
export function configuredSigningCertificate(env: { SIGNING_CERTIFICATE?: string; SIGNING_CERTIFICATE_PASSWORD?: string } = config()): SigningCertificate | null {
  if (!env.SIGNING_CERTIFICATE) return null;
  try {
    return readPkcs12(configuredBytes(env.SIGNING_CERTIFICATE), env.SIGNING_CERTIFICATE_PASSWORD ?? "");
  } catch (error) {
    const message = (error as Error).message;
    const variable = /password/.test(message) ? "SIGNING_CERTIFICATE_PASSWORD" : "SIGNING_CERTIFICATE";
    throw new ConfigError(
      `Invalid configuration:\n  - ${variable}: SIGNING_CERTIFICATE must be a PKCS#12 file (its path, or the file in base64) that SIGNING_CERTIFICATE_PASSWORD opens: ${message}`,
    );
  }
}

/** A new self-signed certificate: RSA 2048, "<site name> document seal (self-signed)", valid ten years. */
export function makeSelfSignedCertificate(siteName: string = SITE_NAME, now: Date = new Date()): { certificatePem: string; privateKeyPem: string } {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const privateKeyPem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  const forgeKey = forge.pki.privateKeyFromPem(privateKeyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(forgeKey.n, forgeKey.e);
  // A positive 16-byte serial (the top bit cleared).
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f;
  cert.serialNumber = serial.toString("hex");
  cert.validity.notBefore = new Date(now.getTime() - 60_000);
  cert.validity.notAfter = new Date(now.getTime() + 10 * 365.25 * 24 * 3600_000);
  const name = [{ name: "commonName", value: `${siteName} document seal (self-signed)` }, { name: "organizationName", value: siteName }];
  cert.setSubject(name);
  cert.setIssuer(name);
  cert.setExtensions([
    { name: "basicConstraints", cA: false, critical: true },
    { name: "keyUsage", digitalSignature: true, nonRepudiation: true, critical: true },
    { name: "subjectKeyIdentifier" },
  ]);
  cert.sign(forgeKey, forge.md.sha256.create());
  return { certificatePem: forge.pki.certificateToPem(cert), privateKeyPem };
}

/** A certificate and its private key, both PEM (the self-signed certificate as kept). */
export function certificateFromPem(certificatePem: string, privateKeyPem: string): SigningCertificate {
  const cert = forge.pki.certificateFromPem(certificatePem);
  return describe(cert, createPrivateKey(privateKeyPem), [der(cert)], cert.isIssuer(cert));
}

function fromRow(row: { id: string; certificate: string; private_key: string }, keys: DataKeyring): SigningCertificate {
  return certificateFromPem(row.certificate, openText(row.private_key, signingKeyPlace(row.id), keys));
}

const kept = new WeakMap<Db, SigningCertificate>();

/** The self-signed certificate kept in the database, made the first time it is asked for. */
export async function selfSignedCertificate(db: Db = database(), keys: DataKeyring = configuredKeyring()): Promise<SigningCertificate> {
  const known = kept.get(db);
  if (known) return known;
  const read = async () => {
    const row = await db.selectFrom("signing_certificates").select(["id", "certificate", "private_key"]).where("id", "=", SELF_SIGNED_ID).executeTakeFirst();
    return row ? fromRow(row, keys) : null;
  };
  let found = await read();
  if (!found) {
    const made = makeSelfSignedCertificate();
    await db
      .insertInto("signing_certificates")
      .values({ id: SELF_SIGNED_ID, certificate: made.certificatePem, private_key: sealText(made.privateKeyPem, signingKeyPlace(SELF_SIGNED_ID), keys), created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column("id").doNothing())
      .execute();
    found = (await read())!;
  }
  kept.set(db, found);
  return found;
}

let configured: SigningCertificate | null | undefined;

/** The certificate that seals documents now: the organisation's when configured, else the self-signed one. */
export async function signingCertificate(db: Db = database(), keys: DataKeyring = configuredKeyring()): Promise<SigningCertificate> {
  if (configured === undefined) configured = configuredSigningCertificate();
  return configured ?? selfSignedCertificate(db, keys);
}

/**
 * At start-up (server/app.ts): a configured certificate is read, and one that cannot be used stops the start
 * with a message naming the variable; without one, the self-signed certificate is made if the database has none.
 */
export async function prepareSigningCertificate(db: Db, keys: DataKeyring): Promise<SigningCertificate> {
  configured = configuredSigningCertificate();
  return configured ?? selfSignedCertificate(db, keys);
}
