import { createCipheriv, createHmac, hkdfSync, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Migrator } from "kysely";
import * as OTPAuth from "otpauth";
import { createCookie } from "react-router";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { migrations } from "../db/migrate";
import { createTestDatabase, dialects, type TestDatabase } from "../tests/support/databases";

// Issue 24, part 2, on the data layer: a database an earlier version left (two-factor secrets and codes waiting in
// sessions sealed "v1:" with a key derived from SESSION_SECRET, recovery codes hashed with a key derived from that,
// usage page tokens keyed with SESSION_SECRET) is moved by migration 0016 onto the data keyring; then the data key
// and the session secret are rotated in turn and every person still signs in with their authenticator and with a
// recovery code. Each "start" is a fresh module graph with the environment a server would have.

const PASSWORD = "correct horse 42";
const earlierSecret = "earlier-session-secret-0123456789-abcdefgh";
const [dataKey1, dataKey2] = [randomBytes(32), randomBytes(32)];
const b64 = (key: Buffer) => key.toString("base64");

// The earlier version's formats, as app/auth/crypto.server.ts, recovery-codes.server.ts and page-token.server.ts wrote them.
const earlierTotpKey = Buffer.from(hkdfSync("sha256", earlierSecret, "legal-self-help", "totp-secret-v1", 32));
function earlierSeal(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", earlierTotpKey, iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
}
const earlierRecoveryKey = Buffer.from(hkdfSync("sha256", earlierTotpKey, "legal-self-help", "recovery-code-v1", 32));
const earlierCodeHash = (userId: string, code: string) => createHmac("sha256", earlierRecoveryKey).update(`${userId}:${code}`).digest("base64url");
const earlierPageToken = (page: string) => createHmac("sha256", earlierSecret).update(`usage-page:${page}`).digest("base64url").slice(0, 22);

/** The authenticator's code, `steps` periods ahead: each code is accepted once, so a later sign-in takes the next one. */
const code = (secret: string, steps = 0) =>
  new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate({ timestamp: Date.now() + steps * 30_000 });
const newSecret = () => new OTPAuth.Secret({ size: 20 }).base32;
let addresses = 0;
const address = () => `192.0.2.${++addresses}`;

/** A start of the application with this environment: configuration and keys read afresh, as a restarted server. */
async function start(env: Record<string, string>) {
  vi.unstubAllEnvs();
  for (const [name, value] of Object.entries({ NODE_ENV: "production", SESSION_SECRET: "", DATA_ENCRYPTION_OLD_KEYS: "", TOTP_ENCRYPTION_KEY: "", ...env })) vi.stubEnv(name, value);
  vi.resetModules();
  return {
    setup: await import("./database-setup"),
    config: await import("~/config.server"),
    accounts: await import("~/auth/accounts.server"),
    recovery: await import("~/auth/two-factor-recovery.server"),
    codes: await import("~/auth/recovery-codes.server"),
    sessions: await import("~/auth/session.server"),
    earlier: await import("~/auth/earlier-secrets.server"),
    pages: await import("~/usage/page-token.server"),
    encryption: await import("~/security/data-encryption.server"),
    storage: await import("~/storage/configured-storage.server"),
  };
}
type App = Awaited<ReturnType<typeof start>>;

/** What the server does before it listens: migrations (0016 with the earlier keys), with the configured keys. */
async function migrate(app: App, handle: TestDatabase) {
  const keys = app.encryption.configuredKeyring();
  const earlier = app.earlier.earlierSecrets(app.config.readDataConfig(), keys);
  const log: string[] = [];
  await app.setup.migrateDatabase(handle, { keys, storage: app.storage.storageFromConfig({}, handle.db), earlier }, (line) => log.push(line));
  return log.join("\n");
}

async function rotate(app: App, handle: TestDatabase) {
  const keys = app.encryption.configuredKeyring();
  const log: string[] = [];
  await app.setup.rotateSealedValues(handle, { keys, storage: app.storage.storageFromConfig({}, handle.db) }, (line) => log.push(line));
  return log.join("\n");
}

afterAll(() => vi.unstubAllEnvs());

describe.each(dialects)("secrets an earlier version derived from SESSION_SECRET, moved and rotated on %s", (dialect) => {
  let handle: TestDatabase;
  const ana = { id: randomUUID(), email: "ana@example.org", secret: newSecret(), codes: Array.from({ length: 10 }, (_, i) => `a${i}b${i}c${i}d${i}e${i}`) };
  const bo = { id: randomUUID(), email: "bo@example.org", pendingSecret: newSecret() };
  // Sessions an earlier version made: Ana's with codes still to save, Bo's half-way through setting up.
  const sessionIds = { ana: randomBytes(32).toString("base64url"), bo: randomBytes(32).toString("base64url") };
  const earlierCookie = createCookie("session", { httpOnly: true, sameSite: "lax", path: "/", secrets: [earlierSecret] });

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0016"));
    expect((await new Migrator({ db: handle.db, provider: { getMigrations: async () => before } }).migrateToLatest()).error).toBeUndefined();
    const app = await start({ SESSION_SECRET: earlierSecret, DATA_ENCRYPTION_KEY: b64(dataKey1) });
    const { hashPassword, hashToken } = await import("~/auth/crypto.server");
    const now = new Date().toISOString();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const person = { last_name: "Lim", phone_country: "SG", phone_code: "+65", phone_number: "91234567", password_hash: await hashPassword(PASSWORD), email_verified_at: now, totp_last_step: null, created_at: now, updated_at: now };
    await handle.db
      .insertInto("users")
      .values([
        { ...person, id: ana.id, first_name: "Ana", email: ana.email, email_key: ana.email, totp_secret: earlierSeal(ana.secret), two_factor_enabled: 1 },
        { ...person, id: bo.id, first_name: "Bo", email: bo.email, email_key: bo.email, totp_secret: null, two_factor_enabled: 0 },
      ])
      .execute();
    await handle.db
      .insertInto("recovery_codes")
      .values(ana.codes.map((c) => ({ code_hash: earlierCodeHash(ana.id, c), user_id: ana.id, created_at: now, used_at: null })))
      .execute();
    const session = { created_at: now, expires_at: later, last_seen_at: now, pending_user_id: null, user_id: null, pending_totp_secret: null, recovery_codes_to_show: null };
    await handle.db
      .insertInto("sessions")
      .values([
        { ...session, id_hash: hashToken(sessionIds.ana), user_id: ana.id, recovery_codes_to_show: earlierSeal(JSON.stringify({ codes: ana.codes, then: "/" })) },
        { ...session, id_hash: hashToken(sessionIds.bo), pending_user_id: bo.id, pending_totp_secret: earlierSeal(bo.pendingSecret) },
      ])
      .execute();
    await handle.db.insertInto("categories").values({ id: 1, name: "Somewhere", sort_order: 1 }).execute();
    await handle.db.insertInto("issues").values({ id: 1, category_id: 1, name: "An issue", content: "", guide_id: null, guide_path: null, model_ai: "", rephrase_content: "" }).execute();
    const interview = randomUUID();
    const sealed = (column: string, plain: string) => app.encryption.sealText(plain, `interviews.${column}:${interview}`);
    await handle.db
      .insertInto("interviews")
      .values({ id: interview, user_id: ana.id, issue_id: 1, status: "Draft", vars: sealed("vars", "{}"), engine_state: sealed("engine_state", '{"history":[]}'), created_at: now, updated_at: now, last_page: earlierPageToken("2-Your home") })
      .execute();
  });
  afterAll(() => handle?.drop());

  const totpSecretOf = async (id: string) => (await handle.db.selectFrom("users").select("totp_secret").where("id", "=", id).executeTakeFirstOrThrow()).totp_secret;

  /** Password, then the authenticator's code: the person ends signed in. */
  async function signsInWithAuthenticator(app: App, person: { email: string }, secret: string, steps: number) {
    const step = await app.accounts.signInWithPassword(person.email, PASSWORD, null, address(), handle.db);
    if (!("setCookie" in step)) throw new Error(`${person.email}: password refused`);
    const { session } = await app.sessions.loadSession(step.setCookie.split(";")[0]!, handle.db);
    const done = await app.accounts.verifySignInCode(session, code(secret, steps), address(), handle.db);
    expect(done, `${person.email} with the authenticator`).toHaveProperty("setCookie");
  }

  /** Password, then a recovery code instead of the authenticator. */
  async function signsInWithRecoveryCode(app: App, person: { email: string }, recoveryCode: string) {
    const step = await app.accounts.signInWithPassword(person.email, PASSWORD, null, address(), handle.db);
    if (!("setCookie" in step)) throw new Error(`${person.email}: password refused`);
    const { session } = await app.sessions.loadSession(step.setCookie.split(";")[0]!, handle.db);
    const done = await app.recovery.signInWithRecoveryCode(session, recoveryCode, address(), handle.db);
    expect(done, `${person.email} with recovery code ${recoveryCode}`).toHaveProperty("setCookie");
  }

  it("migration 0016 refuses without the secret the earlier keys came from, and changes nothing", async () => {
    const sealed = await totpSecretOf(ana.id);
    for (const env of [{}, { SESSION_SECRET: "another-session-secret-that-made-nothing-here" }] as Record<string, string>[]) {
      const app = await start({ ...env, DATA_ENCRYPTION_KEY: b64(dataKey1) });
      await expect(migrate(app, handle)).rejects.toThrow(/Migration 0016_secrets_in_the_data_keyring failed: .*set SESSION_SECRET as the server had it/);
      expect(await totpSecretOf(ana.id)).toBe(sealed);
    }
  });

  it("moves them onto the data keyring: the authenticator, the recovery codes, the codes to save, a set-up under way and the page tokens all go on working", async () => {
    // The operator rotated the session secret on the day of the upgrade: the earlier one is second.
    const rotated = "session-secret-made-on-upgrade-day-0123456789";
    const app = await start({ SESSION_SECRET: `${rotated},${earlierSecret}`, DATA_ENCRYPTION_KEY: b64(dataKey1) });
    // 0016 and every migration numbered after it.
    expect(await migrate(app, handle)).toContain(`${Object.keys(migrations).filter((name) => name >= "0016").length} migration(s) applied`);
    const keys = app.encryption.configuredKeyring();
    expect(await totpSecretOf(ana.id)).toMatch(new RegExp(`^enc1:${keys.current.id}:`));
    expect((await handle.db.selectFrom("application_keys").select("id").orderBy("id").execute()).map((row) => row.id)).toEqual(["recovery-codes-earlier", "usage-pages"]);

    // Cookies the earlier secret signed still open the sessions it made (it is still in the list).
    const anaSession = (await app.sessions.loadSession((await earlierCookie.serialize(sessionIds.ana)).split(";")[0]!, handle.db)).session!;
    expect((await app.codes.codesToShow(anaSession, handle.db))?.codes).toEqual(ana.codes);
    const boSession = (await app.sessions.loadSession((await earlierCookie.serialize(sessionIds.bo)).split(";")[0]!, handle.db)).session!;
    const setup = await app.accounts.twoFactorSetup(boSession, handle.db);
    expect(setup).toMatchObject({ secret: bo.pendingSecret });
    expect(await app.accounts.confirmTwoFactorSetup(boSession, code(bo.pendingSecret), address(), handle.db)).toHaveProperty("setCookie");

    await signsInWithAuthenticator(app, ana, ana.secret, 0);
    await signsInWithRecoveryCode(app, ana, ana.codes[0]!);
    const pageKey = await app.pages.pageTokenKey(handle.db);
    const stored = await handle.db.selectFrom("interviews").select("last_page").executeTakeFirstOrThrow();
    expect(app.pages.pageToken("2-Your home", pageKey)).toBe(stored.last_page);
  });

  it("rotating the data key, then the session secret: every person still signs in with the authenticator and a recovery code", async () => {
    const boCodes = (await handle.db.selectFrom("sessions").select("id_hash").where("user_id", "=", bo.id).execute()).length;
    expect(boCodes).toBe(1);
    // Bo's codes, made after the migration, are hashed with the application's own key.
    const boRows = await handle.db.selectFrom("recovery_codes").select("key_id").distinct().where("user_id", "=", bo.id).execute();
    expect(boRows).toEqual([{ key_id: "recovery-codes" }]);
    let app = await start({ SESSION_SECRET: earlierSecret, DATA_ENCRYPTION_KEY: b64(dataKey1) });
    const boSession = (await handle.db.selectFrom("sessions").select("recovery_codes_to_show").where("user_id", "=", bo.id).executeTakeFirstOrThrow()).recovery_codes_to_show!;
    const boShown = JSON.parse(app.encryption.openText(boSession, `sessions.recovery_codes_to_show:${bo.id}`)) as { codes: string[] };

    // A new data key, the old one still read: rotate-key seals everything again and says what.
    app = await start({ SESSION_SECRET: earlierSecret, DATA_ENCRYPTION_KEY: b64(dataKey2), DATA_ENCRYPTION_OLD_KEYS: b64(dataKey1) });
    const said = await rotate(app, handle);
    const newId = app.encryption.configuredKeyring().current.id;
    expect(said).toContain(`sealed again under key ${newId}: 1 interview(s), 0 file name(s), 0 file(s), 2 two-factor secret(s), 0 two-factor set-up(s) in progress, 2 set(s) of recovery codes waiting to be saved, 0 AI transcript(s), 3 application key(s)`);
    expect(said).toContain("9 recovery code(s) made before this version still use the key they were made with");

    // The old data key dropped, and the session secret rotated with no old one kept.
    app = await start({ SESSION_SECRET: "a-session-secret-after-a-leak-0123456789abcdef", DATA_ENCRYPTION_KEY: b64(dataKey2) });
    await signsInWithAuthenticator(app, ana, ana.secret, 1);
    await signsInWithAuthenticator(app, bo, bo.pendingSecret, 1);
    await signsInWithRecoveryCode(app, ana, ana.codes[1]!);
    await signsInWithRecoveryCode(app, bo, boShown.codes[0]!);
    const stored = await handle.db.selectFrom("interviews").select("last_page").executeTakeFirstOrThrow();
    expect(app.pages.pageToken("2-Your home", await app.pages.pageTokenKey(handle.db))).toBe(stored.last_page);
    // A cookie the earlier secret signed no longer opens a session.
    expect((await app.sessions.loadSession((await earlierCookie.serialize(sessionIds.ana)).split(";")[0]!, handle.db)).session).toBeNull();

    // Ana makes new codes: the earlier key has no code left to check, and the next rotation retires it.
    const anaSession = (await app.sessions.loadSession((await app.sessions.startSession({ userId: ana.id }, null, handle.db)).split(";")[0]!, handle.db)).session!;
    expect(await app.recovery.makeNewRecoveryCodes(ana.id, PASSWORD, anaSession, address(), handle.db)).toBeNull();
    const fresh = (await app.codes.codesToShow(anaSession, handle.db))!.codes;
    const again = await rotate(app, handle);
    expect(again).toContain("0 two-factor secret(s)");
    expect(again).not.toContain("made before this version");
    expect((await handle.db.selectFrom("application_keys").select("id").orderBy("id").execute()).map((row) => row.id)).toEqual(["recovery-codes", "usage-pages"]);
    await signsInWithRecoveryCode(app, ana, fresh[0]!);
  });
});

describe("the earlier keys migration 0016 tries", () => {
  let dataDir: string;
  beforeAll(() => void (dataDir = mkdtempSync(path.join(tmpdir(), "lsh-earlier-"))));
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("are TOTP_ENCRYPTION_KEY first when it was set, then each session secret, then (outside production only) the development ones", async () => {
    const app = await start({ DATA_ENCRYPTION_KEY: b64(dataKey1) });
    const { earlierKeys } = app.earlier;
    const explicit = Buffer.alloc(32, 7);
    const production = { NODE_ENV: "production", DATA_DIR: dataDir, DATA_ENCRYPTION_KEY: b64(dataKey1) };
    const settings = app.config.readDataConfig({ ...production, SESSION_SECRET: `${"n".repeat(32)},${"o".repeat(32)}`, TOTP_ENCRYPTION_KEY: b64(explicit) });
    const keys = earlierKeys(settings);
    expect(keys[0]).toEqual({ key: explicit, sessionSecret: null });
    expect(keys.slice(1).map((k) => k.sessionSecret)).toEqual(["n".repeat(32), "o".repeat(32), `${"n".repeat(32)},${"o".repeat(32)}`]);
    expect(earlierKeys(app.config.readDataConfig(production))).toEqual([]);
    expect(earlierKeys(app.config.readDataConfig({ NODE_ENV: "development", DATA_DIR: dataDir })).map((k) => k.sessionSecret)).toEqual([app.config.DEVELOPMENT_SECRET]);

    // A secret sealed with TOTP_ENCRYPTION_KEY opens with it, and is sealed again with the data keyring.
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", explicit, iv);
    const body = Buffer.concat([cipher.update("JBSWY3DPEHPK3PXP", "utf8"), cipher.final()]);
    const sealed = ["v1", iv.toString("base64"), cipher.getAuthTag().toString("base64"), body.toString("base64")].join(":");
    const ring = app.encryption.dataKeyring(dataKey1);
    const moved = app.earlier.earlierSecrets(settings, ring).resealTwoFactorValue(sealed, "users.totp_secret", "u1");
    expect(app.encryption.openText(moved, "users.totp_secret:u1", ring)).toBe("JBSWY3DPEHPK3PXP");
  });
});
