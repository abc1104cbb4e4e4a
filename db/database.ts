import { mkdirSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "./schema";
import { namingStatements } from "./named-statements";
import { runsDirectly } from "./sqlite-direct";
import { cachingStatements } from "./statement-cache";

export type Db = Kysely<Database>;
export type DialectName = "sqlite" | "postgres";

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  /** Where the data lives, without credentials, for logs. */
  description: string;
  /** PostgreSQL's connection pool (its counts are metrics); SQLite has none. */
  pool: pg.Pool | null;
}

/** What the application watches of its database (app/db.server.ts): no part of db/ logs by itself. */
export interface DatabaseWatch {
  /** An idle PostgreSQL connection the server closed (the pool opens a new one when needed). */
  idleConnectionClosed?: (error: Error) => void;
}

/**
 * Opens the database named by a URL: `file:<path>` for SQLite (the embedded default) or
 * `postgres://…` for PostgreSQL. The same Kysely queries run on both.
 */
export function openDatabase(url: string, watch: DatabaseWatch = {}): DatabaseHandle {
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // An idle connection that the server ends (a restart, a failover) must not crash the process: the pool
    // drops it and the next query opens a new one.
    pool.on("error", (error) => watch.idleConnectionClosed?.(error));
    const location = new URL(url);
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: namingStatements(pool) }) }),
      dialect: "postgres",
      description: `PostgreSQL ${location.hostname}:${location.port || "5432"}${location.pathname}`,
      pool,
    };
  }
  if (url.startsWith("file:")) {
    const file = url.slice("file:".length);
    if (file !== ":memory:") mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma("journal_mode = WAL");
    sqlite.pragma("foreign_keys = ON");
    sqlite.pragma("busy_timeout = 5000");
    sqlite.pragma("synchronous = NORMAL");
    const statements = cachingStatements(sqlite);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: statements }) });
    runsDirectly(db, sqlite, statements);
    return {
      db,
      dialect: "sqlite",
      description: `SQLite ${file}`,
      pool: null,
    };
  }
  throw new Error("DATABASE_URL must start with file: (SQLite) or postgres:// (PostgreSQL)");
}
