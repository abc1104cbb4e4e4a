// Signed documents from stored interviews, and the self-signed certificate kept in the database, on real SQLite
// and PostgreSQL (issue 30): the unsigned download has lines to sign on; the signed one has the signatures, the
// record page and a seal pdfsig validates; a Word guide gives a zip; the certificate is made once whoever asks
// first, its key sealed and sealed again by rotate-key.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { openDatabase } from "../../db/database";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import type { Answers, AnswerValue, VarType } from "~/a2j";
import { interviewDocument, interviewSignatureMarkers, signatureWordsIn } from "~/documents/documents.server";
import { SIGNATURE_LINE } from "~/documents/signatures";
import { docx, docxText } from "~/documents/test-docx";
import { signaturePng } from "~/documents/test-png";
import { importGuide, importSeedGuides } from "~/guides/import.server";
import { sealInterviewColumns } from "~/interviews/interviews.server";
import { dataKeyring, openText } from "~/security/data-encryption.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { rotateSealedValues } from "../../server/database-setup";
import { selfSignedCertificate, signingKeyPlace } from "./certificate.server";
import { signedDocument } from "./signed-document.server";

vi.stubEnv("TIME_ZONE", "Asia/Singapore");
// The key the application seals with in this file (read once, before anything is sealed).
const oldKey = randomBytes(32);
vi.stubEnv("DATA_ENCRYPTION_KEY", oldKey.toString("base64"));
vi.stubEnv("DATA_ENCRYPTION_OLD_KEYS", "");
afterAll(() => vi.unstubAllEnvs());

const dir = mkdtempSync(path.join(tmpdir(), "signed-"));
let n = 0;
const file = (bytes: Uint8Array) => {
  const name = path.join(dir, `${++n}.pdf`);
  writeFileSync(name, bytes);
  return name;
};
const pdftotext = (pdf: Uint8Array) => execFileSync("pdftotext", [file(pdf), "-"]).toString().replace(/\s+/g, " ");
const pdfsig = (pdf: Uint8Array) => spawnSync("pdfsig", [file(pdf)], { encoding: "utf8" }).stdout;

const none: AttachmentStorage = { put: async () => {}, get: async () => null, delete: async () => {} };
const v = (name: string, type: VarType, value: AnswerValue): Answers => ({ [name.toLowerCase()]: { name, type, repeating: false, values: [null, value] } });

describe.each(dialects)("signed documents on %s", (dialect) => {
  let handle: TestDatabase;
  const alice = randomUUID();
  const keys = dataKeyring(oldKey);

  async function interview(id: string, issueId: number, answers: Answers) {
    const now = "2026-11-26T02:00:00.000Z";
    await handle.db
      .insertInto("interviews")
      .values({ id, user_id: alice, issue_id: issueId, status: "Completed", ...sealInterviewColumns(id, { vars: JSON.stringify(answers), engine_state: '{"history":[]}' }), created_at: now, updated_at: now })
      .execute();
  }

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await importSeedGuides("db/seed", { onlyMissing: false }, handle.db);
    await insertTestUser(handle.db, alice, "alice@example.org");
    await interview("demand", 5, { ...v("User full name TE", "Text", "Tan Wei Ling"), ...v("Debtor type MC", "MC", "Person"), ...v("Debtor name TE", "Text", "Lim Ah Kow") });
    await interview("bond", 6, { ...v("Tenant name TE", "Text", "Ada Lovelace"), ...v("Landlord name TE", "Text", "Harbour Realty") });
  });
  afterAll(() => handle?.drop());

  it("the self-signed certificate is made once, whoever asks first; its key is sealed", async () => {
    const [a, b, c] = await Promise.all([selfSignedCertificate(handle.db, keys), selfSignedCertificate(handle.db, keys), selfSignedCertificate(handle.db, keys)]);
    expect(new Set([a.fingerprint, b.fingerprint, c.fingerprint]).size).toBe(1);
    expect(a).toMatchObject({ subject: "Legal Self-Help document seal (self-signed)", selfSigned: true });
    const rows = await handle.db.selectFrom("signing_certificates").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.private_key).toMatch(/^enc1:/);
    expect(rows[0]!.private_key).not.toContain("PRIVATE KEY");
    expect(rows[0]!.certificate).toContain("BEGIN CERTIFICATE");

  });

  it("two instances starting at once on an empty table: one certificate, both use it", async () => {
    const kept = await handle.db.selectFrom("signing_certificates").selectAll().execute();
    await handle.db.deleteFrom("signing_certificates").execute();
    const one = openDatabase(handle.url);
    const two = openDatabase(handle.url);
    try {
      const [a, b] = await Promise.all([selfSignedCertificate(one.db, keys), selfSignedCertificate(two.db, keys)]);
      expect(a.fingerprint).toBe(b.fingerprint);
      expect(await handle.db.selectFrom("signing_certificates").select("id").execute()).toEqual([{ id: "self-signed" }]);
    } finally {
      await one.db.destroy();
      await two.db.destroy();
      // The first certificate back, which this handle has kept.
      await handle.db.deleteFrom("signing_certificates").execute();
      await handle.db.insertInto("signing_certificates").values(kept).execute();
    }
  });

  it("an interview's signature places, the person's own first; none for another user", async () => {
    expect(await interviewSignatureMarkers(alice, "bond", handle.db)).toEqual([
      { variable: "Tenant signature", dateVariable: "Tenant signature date", label: "Tenant", ownersOwn: true },
      { variable: "Landlord or agent signature", dateVariable: "Landlord or agent signature date", label: "Landlord or agent", ownersOwn: false },
    ]);
    expect(await interviewSignatureMarkers(randomUUID(), "bond", handle.db)).toBeNull();
  });

  it("unsigned: the download has a line to sign on and one for the date", async () => {
    const doc = await interviewDocument(alice, "demand", { db: handle.db, storage: none });
    if (doc.kind !== "file") throw new Error(doc.kind);
    expect(pdftotext(doc.bytes)).toContain(`Yours faithfully, ${SIGNATURE_LINE} Tan Wei Ling Date signed: ${SIGNATURE_LINE}`);
  });

  it("typed: the signature, its date in the country's way, the record page, sealed", async () => {
    const certificate = await selfSignedCertificate(handle.db, keys);
    const signedAt = new Date("2026-11-26T17:30:00Z"); // 27 November in Singapore
    const signed = await signedDocument(alice, "demand", [{ variable: "User signature", name: "Tan Wei Ling", email: "alice@example.org", method: "typed", signedAt, address: "198.51.100.7" }], { db: handle.db, storage: none, certificate, now: new Date("2026-11-26T17:31:00Z") });
    if (signed.kind !== "file") throw new Error(signed.kind);
    expect(signed).toMatchObject({ contentType: "application/pdf", fileName: "Unpaid salary and employment claims – Letter of demand – 26 November 2026.pdf", issueId: 5 });
    expect(signed.sha256).toBe(createHash("sha256").update(signed.bytes).digest("hex"));
    const text = pdftotext(signed.bytes);
    expect(text).toContain("Yours faithfully, /s/ Tan Wei Ling Signed electronically by Tan Wei Ling on 27 November 2026 Tan Wei Ling Date signed: 27 November 2026");
    expect(text).toContain("Signing record");
    expect(text).toContain("Signer 1 (User): Tan Wei Ling");
    expect(text).toContain("(Asia/Singapore; 2026-11-26 17:30:00 UTC)");
    expect(text).toContain("Signed from address: 198.51.100.7");
    expect(text).toContain(signed.documentSha256!);
    const report = pdfsig(signed.bytes);
    expect(report).toContain("Signature is Valid.");
    expect(report).toContain("Total document signed");
  });

  it("two signers, typed and drawn: both in their places, both on the record", async () => {
    const at = new Date("2026-11-27T01:00:00Z");
    const signed = await signedDocument(
      alice,
      "bond",
      [
        { variable: "Tenant signature", name: "Ada Lovelace", email: "alice@example.org", method: "drawn", image: signaturePng(), signedAt: at, address: "203.0.113.5" },
        { variable: "Landlord or agent signature", name: "Grace Hopper", email: "grace@harbour.example", method: "typed", signedAt: at, address: "203.0.113.6" },
      ],
      { db: handle.db, storage: none, certificate: await selfSignedCertificate(handle.db, keys) },
    );
    if (signed.kind !== "file") throw new Error(signed.kind);
    const text = pdftotext(signed.bytes);
    expect(text).toContain("Yours sincerely, Signed electronically by Ada Lovelace on 27 November 2026 Ada Lovelace Date signed: 27 November 2026");
    expect(text).toContain("Acknowledgement of receipt I received this letter on behalf of the landlord or agent. /s/ Grace Hopper Signed electronically by Grace Hopper on 27 November 2026 Harbour Realty Date signed: 27 November 2026");
    expect(text).toContain("Signer 1 (Tenant): Ada Lovelace");
    expect(text).toContain("How they signed: drew their signature");
    expect(text).toContain("Signer 2 (Landlord or agent): Grace Hopper");
    expect(pdfsig(signed.bytes)).toContain("Signature is Valid.");
  });

  it("a guide with a Word template: a zip of the sealed PDF and the signed Word file, whose SHA-256 the record gives", async () => {
    const files = new Map<string, Uint8Array>([
      ["Guide.json", await readFile("db/seed/guides/letter-of-demand/Guide.json")],
      ["templates.json", Buffer.from('{"templateIds":[1,2]}')],
      ["template1.json", Buffer.from(JSON.stringify({ title: "Letter", rootNode: { tag: "a2j-template", children: [{ tag: "a2j-rich-text", state: { userContent: '<p>Hello</p><p><a2j-variable name="User signature"></a2j-variable></p>' } }] } }))],
      ["template2.docx", docx(["For {User full name TE}", "Signed: {User signature}"])],
    ]);
    await importGuide("word-sign", files, handle.db);
    await handle.db.updateTable("issues").set({ guide_id: "word-sign" }).where("id", "=", 9).execute();
    await interview("word", 9, v("User full name TE", "Text", "Tan Wei Ling"));
    const signed = await signedDocument(alice, "word", [{ variable: "User signature", name: "Tan Wei Ling", email: "alice@example.org", method: "typed", signedAt: new Date("2026-11-27T01:00:00Z"), address: null }], { db: handle.db, storage: none, certificate: await selfSignedCertificate(handle.db, keys) });
    if (signed.kind !== "file") throw new Error(signed.kind);
    expect(signed.contentType).toBe("application/zip");
    const entries = unzipSync(signed.bytes);
    const names = Object.keys(entries);
    expect(names).toHaveLength(2);
    const pdf = entries[names.find((name) => name.endsWith(".pdf"))!]!;
    const word = entries[names.find((name) => name.endsWith(".docx"))!]!;
    expect(docxText(word)).toEqual(["For Tan Wei Ling", "Signed: /s/ Tan Wei LingSigned electronically by Tan Wei Ling on 27 November 2026"]);
    const text = pdftotext(pdf);
    expect(text).toContain("Hello /s/ Tan Wei Ling Signed electronically by Tan Wei Ling on 27 November 2026");
    expect(text).toContain(`SHA-256 of the file ${names.find((name) => name.endsWith(".docx"))} ${createHash("sha256").update(word).digest("hex")}`);
    expect(pdfsig(pdf)).toContain("Signature is Valid.");
  });

  it("the words a signature prints with, in the guide's language (English where the font cannot draw them)", () => {
    expect(signatureWordsIn("fr").signedBy("Ada Lovelace", "27 novembre 2026")).toBe("Signé électroniquement par Ada Lovelace le 27 novembre 2026");
    expect(signatureWordsIn("es").drawnAlt("Ada")).toBe("Firma de Ada");
    expect(signatureWordsIn("xx").signedBy("Ada", "1 May")).toBe("Signed electronically by Ada on 1 May");
  });

  it("rotate-key seals the certificate's key again under the new data key", async () => {
    const newKey = randomBytes(32);
    const newKeys = dataKeyring(newKey, [oldKey]);
    const said: string[] = [];
    await rotateSealedValues(handle, { keys: newKeys, storage: none }, (line) => said.push(line));
    expect(said.join("\n")).toContain("1 document seal key(s) (the self-signed signing certificate)");
    const after = await handle.db.selectFrom("signing_certificates").select("private_key").executeTakeFirstOrThrow();
    expect(after.private_key.startsWith(`enc1:${newKeys.current.id}:`)).toBe(true);
    expect(openText(after.private_key, signingKeyPlace("self-signed"), dataKeyring(newKey))).toContain("BEGIN PRIVATE KEY");
  });
});
