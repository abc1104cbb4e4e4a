import { openDatabase, type DatabaseHandle, type Db } from "../db/database";
import { config } from "./config.server";

// Kept on globalThis so the development server's module reloads reuse one connection pool.
const holder = globalThis as typeof globalThis & { __database?: DatabaseHandle };

/** The application's database connection (opened on first use), with its dialect and description. */
export function databaseHandle(): DatabaseHandle {
  holder.__database ??= openDatabase(config().DATABASE_URL);
  return holder.__database;
}

/** The application's database. */
export function database(): Db {
  return databaseHandle().db;
}

export async function closeDatabase(): Promise<void> {
  const current = holder.__database;
  holder.__database = undefined;
  await current?.db.destroy();
}
