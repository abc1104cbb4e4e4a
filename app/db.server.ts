import { openDatabase, type DatabaseHandle, type Db } from "../db/database";
import { config } from "./config.server";
import { logger } from "./observability/log.server";
import { watchPool } from "./observability/metrics.server";

// Kept on globalThis so the development server's module reloads reuse one connection pool.
const holder = globalThis as typeof globalThis & { __database?: DatabaseHandle };

const log = logger("database");

/**
 * The application's database connection (opened on first use), with its dialect and description; a
 * PostgreSQL pool's connections are metrics.
 */
export function databaseHandle(): DatabaseHandle {
  if (!holder.__database) {
    holder.__database = openDatabase(config().DATABASE_URL, {
      idleConnectionClosed: (error) => log.warn(`an idle PostgreSQL connection was closed: ${error.message}`),
    });
    watchPool(holder.__database.pool);
  }
  return holder.__database;
}

/** The application's database. */
export function database(): Db {
  return databaseHandle().db;
}

export async function closeDatabase(): Promise<void> {
  const current = holder.__database;
  holder.__database = undefined;
  watchPool(null);
  await current?.db.destroy();
}
