import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { type Generated, Kysely, sql, SqliteDialect } from "kysely";
import { afterEach, describe, expect, it } from "vitest";
import { cachingStatements } from "./statement-cache";

interface Tables {
  items: { id: Generated<number>; name: string };
}

function open(size?: number) {
  const sqlite = new SQLite(":memory:");
  let prepared = 0;
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((source: string) => {
    prepared++;
    return prepare(source);
  }) as typeof sqlite.prepare;
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite, size) }) });
  return { db, prepared: () => prepared };
}

describe("cachingStatements", () => {
  let db: Kysely<Tables> | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  it("prepares a query's SQL once and binds new values on each run", async () => {
    const opened = open();
    db = opened.db;
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    for (const name of ["a", "b", "c"]) await db.insertInto("items").values({ name }).execute();
    const before = opened.prepared();
    const names = [];
    for (const id of [1, 2, 3]) names.push((await db.selectFrom("items").select("name").where("id", "=", id).executeTakeFirst())?.name);
    expect(names).toEqual(["a", "b", "c"]);
    expect(opened.prepared() - before).toBe(1);
    // Writes still report their effect (statements that return no rows are run, not read).
    const updated = await db.updateTable("items").set({ name: "z" }).where("id", ">", 1).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const inserted = await db.insertInto("items").values({ name: "d" }).executeTakeFirst();
    expect(inserted.insertId).toBe(4n);
  });

  it("keeps transactions working: commit and rollback", async () => {
    db = open().db;
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    for (let round = 0; round < 2; round++) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto("items").values({ name: `kept ${round}` }).execute();
      });
      await expect(
        db.transaction().execute(async (trx) => {
          await trx.insertInto("items").values({ name: `lost ${round}` }).execute();
          throw new Error("undo");
        }),
      ).rejects.toThrow("undo");
    }
    expect((await db.selectFrom("items").select("name").orderBy("id").execute()).map((r) => r.name)).toEqual(["kept 0", "kept 1"]);
  });

  it("keeps only the most recently used statements", async () => {
    const opened = open(2);
    db = opened.db;
    await sql`create table items (id integer primary key, name text not null)`.execute(db);
    const byId = () => db!.selectFrom("items").select("name").where("id", "=", 1).execute();
    const byName = () => db!.selectFrom("items").select("id").where("name", "=", "a").execute();
    const all = () => db!.selectFrom("items").selectAll().execute();
    await byId();
    await byName();
    await byId(); // byId is now the most recent, byName the least
    await all(); // drops byName
    const before = opened.prepared();
    await byId();
    expect(opened.prepared()).toBe(before);
    await byName();
    expect(opened.prepared()).toBe(before + 1);
  });

  it("prepares a fresh statement while the cached one is still being iterated", () => {
    const sqlite = new SQLite(":memory:");
    const database = cachingStatements(sqlite);
    try {
      sqlite.exec("create table items (id integer primary key, name text not null); insert into items (name) values ('a'), ('b')");
      const text = "select name from items order by id";
      const first = database.prepare(text);
      expect(first.reader).toBe(true);
      const rows = first.iterate([]);
      expect(rows.next().value).toEqual({ name: "a" });
      const second = database.prepare(text);
      expect(second).not.toBe(first);
      expect(second.all([])).toEqual([{ name: "a" }, { name: "b" }]);
      expect(rows.next().value).toEqual({ name: "b" });
      rows.return?.();
      expect(database.prepare(text)).toBe(first);
    } finally {
      database.close();
    }
  });

  it("a transaction that reads and then writes waits for another process's write instead of failing", async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), "lsh-begin-")), "app.db");
    const [ours, theirs] = [new SQLite(file), new SQLite(file)];
    try {
      for (const connection of [ours, theirs]) connection.pragma("journal_mode = WAL");
      // Theirs gives up at once rather than wait (as the real one would) for our transaction to end.
      theirs.pragma("busy_timeout = 0");
      theirs.exec("create table items (id integer primary key, name text not null); insert into items (name) values ('a')");
      const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: cachingStatements(ours) }) });
      await db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom("items").select("name").execute();
        // Another process (the operator command beside the server) writes between our read and our write.
        expect(() => theirs.exec("insert into items (name) values ('b')")).toThrow(/database is locked/);
        await trx.insertInto("items").values({ name: `after ${before.length}` }).execute();
      });
      theirs.exec("insert into items (name) values ('b')");
      expect(theirs.prepare("select name from items order by id").pluck().all()).toEqual(["a", "after 1", "b"]);
      await db.destroy();
    } finally {
      theirs.close();
      rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });
});
