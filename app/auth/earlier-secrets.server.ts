// What migration 0016 needs to move what an earlier version sealed or keyed with keys derived from SESSION_SECRET
// (or TOTP_ENCRYPTION_KEY) onto the data keyring (db/migrations/0016_secrets_in_the_data_keyring.ts;
// docs/decisions/0033-secrets-and-rotation.md). Nothing else reads the earlier format or derives those keys.
import { createDecipheriv, hkdfSync } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import type { EarlierSealedColumn, EarlierSecrets } from "../../db/migrations/0016_secrets_in_the_data_keyring";
import { type DataConfig, DEVELOPMENT_SECRET } from "~/config.server";
import { sealApplicationKey } from "~/security/application-keys.server";
import type { DataKeyring } from "~/security/data-encryption.server";
import { sealTwoFactorValue } from "./crypto.server";

/** The file `npm start` keeps its generated session secret in (server.js), read when SESSION_SECRET is unset. */
const LOCAL_SESSION_SECRET_FILE = "session-secret";

/** A key two-factor secrets may have been sealed with, and the session secret it was derived from, if any. */
interface EarlierKey {
  key: Buffer;
  sessionSecret: string | null;
}

/**
 * The earlier version's key: TOTP_ENCRYPTION_KEY when it was set, else HKDF-SHA256 of SESSION_SECRET (salt
 * "legal-self-help", info "totp-secret-v1"). Every candidate the configuration allows is tried: each secret of a
 * SESSION_SECRET list (an operator may have rotated on the day of the upgrade), the whole value (a secret with a
 * comma in it), and outside production the generated one `npm start` keeps and the development one.
 */
export function earlierKeys(settings: DataConfig): EarlierKey[] {
  const secrets = [...(settings.SESSION_SECRET ?? [])];
  if (secrets.length > 1) secrets.push(secrets.join(","));
  if (settings.NODE_ENV !== "production") {
    const file = path.join(settings.DATA_DIR, LOCAL_SESSION_SECRET_FILE);
    if (existsSync(file)) secrets.push(readFileSync(file, "utf8").trim());
    secrets.push(DEVELOPMENT_SECRET);
  }
  const derived = secrets.map((secret) => ({ key: Buffer.from(hkdfSync("sha256", secret, "legal-self-help", "totp-secret-v1", 32)), sessionSecret: secret }));
  return settings.TOTP_ENCRYPTION_KEY ? [{ key: Buffer.from(settings.TOTP_ENCRYPTION_KEY, "base64"), sessionSecret: null }, ...derived] : derived;
}

/** "v1:iv:tag:body", AES-256-GCM, no additional data: the format app/auth/crypto.server.ts wrote before 0016. */
function openEarlier(sealed: string, key: Buffer): string | null {
  const [version, iv, tag, body] = sealed.split(":");
  if (version !== "v1" || !iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64"));
    decipher.setAuthTag(Buffer.from(tag, "base64"));
    return Buffer.concat([decipher.update(Buffer.from(body, "base64")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/**
 * The earlier keys as migration 0016 takes them, sealing with `keys`. The key that opens the first two-factor
 * secret is the one the deployment used: the recovery-code key is derived from it as before, and the page tokens'
 * key is the session secret it came from (else the first configured).
 */
export function earlierSecrets(settings: DataConfig, keys: DataKeyring): EarlierSecrets {
  const candidates = earlierKeys(settings);
  let found: EarlierKey | undefined;
  const inUse = () => found ?? candidates[0];
  const missing = () =>
    new Error(
      "two-factor secrets sealed by an earlier version open under no key this configuration gives: set SESSION_SECRET as the " +
        "server had it (and TOTP_ENCRYPTION_KEY if it was set), then start again",
    );
  return {
    resealTwoFactorValue(value: string, column: EarlierSealedColumn, id: string): string {
      for (const candidate of found ? [found, ...candidates] : candidates) {
        const plain = openEarlier(value, candidate.key);
        if (plain === null) continue;
        found ??= candidate;
        return sealTwoFactorValue(plain, column, id, keys);
      }
      throw missing();
    },
    sealedRecoveryCodeKey(id: string): string {
      const earlier = inUse();
      if (!earlier) throw missing();
      return sealApplicationKey(id, Buffer.from(hkdfSync("sha256", earlier.key, "legal-self-help", "recovery-code-v1", 32)), keys);
    },
    sealedPageTokenKey(id: string): string {
      const secret = inUse()?.sessionSecret ?? settings.SESSION_SECRET?.[0] ?? candidates.find((c) => c.sessionSecret)?.sessionSecret;
      if (!secret) throw new Error("usage page tokens were made with SESSION_SECRET: set it as the server had it, then start again");
      return sealApplicationKey(id, Buffer.from(secret, "utf8"), keys);
    },
  };
}
