import { existsSync, renameSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";

export interface BackupResult {
  bytes: number;
  pages: number;
  ms: number;
}

/**
 * Copies a SQLite database to `target` with SQLite's online backup API, while the server may be writing to it.
 * The copy is one step: one read transaction, so it is the database as it was at one moment, and in WAL mode a
 * reader never blocks the server's writers. (Copying in several steps would restart whenever another process
 * wrote between two of them, which a busy server does all the time.) The copy is written beside the target and
 * renamed into place once checked, so a backup cut short never leaves a file that looks like a backup.
 */
export async function backupSqlite(source: string, target: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new Error(`There is no SQLite database at ${source}.`);
  if (existsSync(target)) throw new Error(`${target} already exists: choose a new file name (a backup never overwrites one).`);
  const partial = path.join(path.dirname(target), `.${path.basename(target)}.partial`);
  rmSync(partial, { force: true });
  const started = Date.now();
  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 5000");
    const { totalPages } = await db.backup(partial, { progress: ({ remainingPages }) => remainingPages });
    const copy = new SQLite(partial, { fileMustExist: true });
    try {
      const check = copy.pragma("quick_check", { simple: true });
      if (check !== "ok") throw new Error(`The copy failed SQLite's check: ${String(check)}`);
      // A backup is one file: its changes are folded in and it no longer needs a -wal beside it.
      copy.pragma("journal_mode = DELETE");
    } finally {
      copy.close();
    }
    renameSync(partial, target);
    return { bytes: statSync(target).size, pages: totalPages, ms: Date.now() - started };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    db.close();
  }
}
