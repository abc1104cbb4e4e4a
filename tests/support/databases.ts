import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type pg from "pg";
import { type DatabaseHandle, type DialectName, openDatabase } from "../../db/database";
import { connectAdmin, databaseUrl, explainPostgresProblem, testPostgresUrl } from "./postgres";

/**
 * The PostgreSQL server the data tests use (TEST_POSTGRES_URL, by default the `postgres` database on 127.0.0.1:5432);
 * each suite gets a fresh database of its own on it.
 */
export const POSTGRES_URL = testPostgresUrl();

export interface TestDatabase extends DatabaseHandle {
  /** The DATABASE_URL that opens it (for code that opens its own connection, such as the operator commands). */
  url: string;
  /** Closes the connection and deletes the database. */
  drop(): Promise<void>;
}

async function sqliteDatabase(): Promise<TestDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), "lsh-sqlite-"));
  const url = `file:${path.join(dir, "test.db")}`;
  const handle = openDatabase(url);
  return {
    ...handle,
    url,
    async drop() {
      await handle.db.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresDatabase(): Promise<TestDatabase> {
  const name = `lsh_test_${randomBytes(6).toString("hex")}`;
  let admin: pg.Client;
  try {
    admin = await connectAdmin(POSTGRES_URL);
  } catch (error) {
    throw new Error(explainPostgresProblem(POSTGRES_URL, error));
  }
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = databaseUrl(POSTGRES_URL, name);
  const handle = openDatabase(url);
  return {
    ...handle,
    url,
    async drop() {
      await handle.db.destroy();
      const cleaner = await connectAdmin(POSTGRES_URL);
      // The pool's end() resolves before its connections have closed: wait for them (up to 5 s), so that
      // "with (force)" does not terminate one mid-close and make its client throw an unhandled error.
      for (let i = 0; i < 50; i++) {
        const { rows } = await cleaner.query<{ count: string }>("select count(*) from pg_stat_activity where datname = $1", [name]);
        if (Number(rows[0]?.count) === 0) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await cleaner.query(`drop database if exists ${name} with (force)`);
      await cleaner.end();
    },
  };
}

export const dialects: DialectName[] = ["sqlite", "postgres"];

export function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  return dialect === "sqlite" ? sqliteDatabase() : postgresDatabase();
}

/** A verified user row, for data tests that need an owner. */
export async function insertTestUser(db: DatabaseHandle["db"], id: string, email: string): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("users")
    .values({ id, first_name: "A", last_name: "B", email, email_key: email.toLowerCase(), phone_country: "SG", phone_code: "+65", phone_number: "1", password_hash: null, email_verified_at: now, totp_secret: null, two_factor_enabled: 0, totp_last_step: null, created_at: now, updated_at: now })
    .execute();
}
