import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  bytesKeyId,
  DataDecryptionError,
  dataKeyring,
  keyringFromConfig,
  LOCAL_KEY_FILE,
  openBytes,
  openText,
  RecentValues,
  sealBytes,
  sealText,
  textKeyId,
} from "./data-encryption.server";

const oldKey = Buffer.alloc(32, 1);
const newKey = Buffer.alloc(32, 2);
const keys = dataKeyring(oldKey);
const place = "interviews.vars:7c9e";

describe("sealing text", () => {
  it("opens what it sealed, with a fresh IV each time, naming its key but not showing the text", () => {
    const plain = '{"client name te":{"values":[null,"Zoë Ångström"]}}';
    const [a, b] = [sealText(plain, place, keys), sealText(plain, place, keys)];
    expect(a).not.toBe(b);
    expect(a).toMatch(new RegExp(`^enc1:${keys.current.id}:[A-Za-z0-9+/]+=*$`));
    expect(keys.current.id).toMatch(/^[0-9a-f]{8}$/);
    // Neither the text nor its bytes show (a short probe like "Zo" would turn up in random base64 now and then).
    expect(a).not.toContain("client name te");
    expect(Buffer.from(a.slice(a.lastIndexOf(":") + 1), "base64").toString("latin1")).not.toContain("client name te");
    expect(openText(a, place, keys)).toBe(plain);
    expect(openText(sealText("", place, keys), place, keys)).toBe("");
  });

  it("refuses a value moved to another place, changed, cut, plain, or under a key not configured", () => {
    const sealed = sealText("secret answer", place, keys);
    expect(() => openText(sealed, "interviews.vars:other-row", keys)).toThrow(DataDecryptionError);
    expect(() => openText(sealed, "interviews.xml:7c9e", keys)).toThrow(/changed, or moved from another place/);
    const body = Buffer.from(sealed.slice(sealed.lastIndexOf(":") + 1), "base64");
    body[body.length - 1]! ^= 1;
    expect(() => openText(`enc1:${keys.current.id}:${body.toString("base64")}`, place, keys)).toThrow(DataDecryptionError);
    expect(() => openText(`enc1:${keys.current.id}:AAAA`, place, keys)).toThrow(/cut short/);
    expect(() => openText("secret answer", place, keys)).toThrow(/is not sealed/);
    expect(() => openText(sealed, place, dataKeyring(newKey))).toThrow(new RegExp(`sealed under key ${keys.current.id}, which is not configured`));
  });

  it("reads values under an old key while sealing new ones under the current key", () => {
    const before = sealText("kept", place, keys);
    const rotated = dataKeyring(newKey, [oldKey]);
    expect(openText(before, place, rotated)).toBe("kept");
    const after = sealText("kept", place, rotated);
    expect(textKeyId(after)).toBe(rotated.current.id);
    expect(textKeyId(before)).toBe(keys.current.id);
    expect(rotated.current.id).not.toBe(keys.current.id);
    expect(textKeyId('{"plain":true}')).toBeNull();
  });
});

describe("values just sealed or opened", () => {
  it("are taken back only for the very text stored at that place under that keyring", () => {
    const ring = dataKeyring(newKey);
    const first = sealText("first answer", place, ring);
    const second = sealText("second answer", place, ring);
    // The place now remembers the second; the first still opens, by decryption.
    expect(openText(second, place, ring)).toBe("second answer");
    expect(openText(first, place, ring)).toBe("first answer");
    // A changed copy of the remembered text, the text at another place, or under a keyring without its key: refused.
    const body = Buffer.from(first.slice(first.lastIndexOf(":") + 1), "base64");
    body[body.length - 1]! ^= 1;
    expect(() => openText(`enc1:${ring.current.id}:${body.toString("base64")}`, place, ring)).toThrow(DataDecryptionError);
    expect(() => openText(first, "interviews.vars:other-row", ring)).toThrow(DataDecryptionError);
    expect(() => openText(first, place, keys)).toThrow(/which is not configured/);
  });

  it("hold a bounded amount of text, the oldest going first", () => {
    const recent = new RecentValues();
    const value = "x".repeat(30_000);
    for (let i = 0; i < 1_000; i++) recent.remember(`interviews.vars:${i}`, value, value);
    expect(recent.size).toBeLessThanOrEqual(RecentValues.BUDGET_CHARS);
    expect(recent.get("interviews.vars:999", value)).toBe(value);
    expect(recent.get("interviews.vars:0", value)).toBeUndefined();
    recent.remember("interviews.vars:big", "y".repeat(RecentValues.BUDGET_CHARS), "");
    expect(recent.get("interviews.vars:big", "y".repeat(RecentValues.BUDGET_CHARS))).toBeUndefined();
    expect(recent.get("interviews.vars:999", value)).toBe(value);
  });
});

describe("sealing file bytes", () => {
  const pdf = Buffer.from("%PDF-1.4\n% a statement\n%%EOF\n");

  it("opens what it sealed; the header names the format and the key; the content does not show", () => {
    const sealed = sealBytes(pdf, keys);
    expect(sealed.subarray(0, 5)).toEqual(Buffer.from([0x4c, 0x53, 0x48, 0x45, 1]));
    expect(bytesKeyId(sealed)).toBe(keys.current.id);
    expect(sealed.includes("statement")).toBe(false);
    expect(sealed.length).toBe(pdf.length + 4 + 1 + 4 + 12 + 16);
    expect(openBytes(sealed, keys)).toEqual(pdf);
    expect(openBytes(sealBytes(new Uint8Array(), keys), keys)).toEqual(Buffer.alloc(0));
    expect(openBytes(sealed, dataKeyring(newKey, [oldKey]))).toEqual(pdf);
  });

  it("refuses changed, plain, cut or foreign-key files", () => {
    const sealed = sealBytes(pdf, keys);
    const changed = Buffer.from(sealed);
    changed[changed.length - 3]! ^= 0x20;
    expect(() => openBytes(changed, keys)).toThrow(/it was changed/);
    const otherKeyId = Buffer.from(sealed);
    otherKeyId[6]! ^= 1;
    expect(() => openBytes(otherKeyId, keys)).toThrow(/which is not configured/);
    expect(() => openBytes(pdf, keys)).toThrow(/not sealed/);
    expect(bytesKeyId(pdf)).toBeNull();
    expect(() => openBytes(sealed.subarray(0, 20), keys)).toThrow(/cut short/);
    expect(() => openBytes(sealed, dataKeyring(newKey))).toThrow(DataDecryptionError);
  });
});

describe("the configured keys", () => {
  const base = { NODE_ENV: "development" as const, DATABASE_URL: "file:x.db", SEED_DIR: "db/seed" };

  it("takes DATA_ENCRYPTION_KEY, and the old keys for reading", () => {
    const ring = keyringFromConfig({ ...base, DATA_DIR: "/nowhere", DATA_ENCRYPTION_KEY: newKey.toString("base64"), DATA_ENCRYPTION_OLD_KEYS: [oldKey.toString("base64")] });
    expect(ring.current.id).toBe(dataKeyring(newKey).current.id);
    expect([...ring.byId.keys()]).toEqual([dataKeyring(newKey).current.id, keys.current.id]);
  });

  it("without one, uses the key `npm start --local` keeps in DATA_DIR, else a fixed development key", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "lsh-keys-"));
    try {
      const development = keyringFromConfig({ ...base, DATA_DIR: dir });
      expect(keyringFromConfig({ ...base, DATA_DIR: dir }).current.id).toBe(development.current.id);
      writeFileSync(path.join(dir, LOCAL_KEY_FILE), `${newKey.toString("base64")}\n`);
      expect(keyringFromConfig({ ...base, DATA_DIR: dir }).current.id).toBe(dataKeyring(newKey).current.id);
      writeFileSync(path.join(dir, LOCAL_KEY_FILE), "not a key\n");
      expect(() => keyringFromConfig({ ...base, DATA_DIR: dir })).toThrow(/does not hold a data encryption key/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
