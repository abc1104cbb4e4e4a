import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { e2eDataDir, e2eDataKey, noAiDataDir } from "../../playwright.config";
import { attachmentNamePlace } from "~/interviews/attachments.server";
import { interviewPlace, type SealedInterviewColumn } from "~/interviews/interviews.server";
import { dataKeyring, openBytes, openText, sealBytes, sealText } from "~/security/data-encryption.server";

export interface OutboxMessage {
  id: string;
  created_at: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  html: string;
  text: string;
}

/**
 * The data folders whose outbox the tests read: the e2e servers', and those of servers a spec starts itself
 * (under ./data/e2e-*, as storage-s3.spec.ts does, or added here, as instances.spec.ts does).
 */
export const outboxDataDirs = [e2eDataDir, noAiDataDir];

/** The messages in the servers' outbox folders, as a person reading ./data/outbox would see them. */
export function outboxMessages(): OutboxMessage[] {
  const started = readdirSync(path.dirname(e2eDataDir)).filter((name) => name.startsWith("e2e-")).map((name) => path.join(path.dirname(e2eDataDir), name));
  return [...new Set([...outboxDataDirs, ...started])].flatMap((dataDir) => {
    const dir = path.join(dataDir, "outbox");
    let files: string[] = [];
    try {
      files = readdirSync(dir).filter((name) => name.endsWith(".json"));
    } catch {
      return [];
    }
    return files.map((name) => JSON.parse(readFileSync(path.join(dir, name), "utf8")) as OutboxMessage);
  });
}

/** The SQLite database of the e2e server whose data is in `dataDir`. */
let databaseDir = e2eDataDir;

/** Runs `use` with `withE2eDatabase` (and the helpers built on it) pointed at another server's data. */
export function onServerData<T>(dataDir: string, use: () => T): T {
  const previous = databaseDir;
  databaseDir = dataDir;
  try {
    return use();
  } finally {
    databaseDir = previous;
  }
}

/** A guide (its Guide.json text) planted as version 1, published, on a SQLite database; kept if already there. */
export function plantGuide(db: Database.Database, id: string, title: string, source: string): void {
  const now = new Date().toISOString();
  db.prepare("insert into guides (id, title, published_version) values (?, ?, 1) on conflict do nothing").run(id, title);
  db.prepare(
    "insert into guide_versions (guide_id, version, title, format, source, origin, uploaded_by_email, uploaded_at, published_at) values (?, 1, ?, 'json', ?, 'seed', 'seed', ?, ?) on conflict do nothing",
  ).run(id, title, source, now, now);
}

/** Issue 900, running the guide with one upload question (tests/fixtures/upload-guide), on the e2e database. */
export function plantUploadIssue(): void {
  const guide = readFileSync("tests/fixtures/upload-guide/Guide.json", "utf8");
  withE2eDatabase((db) => {
    plantGuide(db, "upload-test", "Upload test guide", guide);
    db.prepare("insert into issues (id, category_id, name, content, guide_id, guide_path, model_ai, rephrase_content) values (900, 1, 'Upload test', '', 'upload-test', 'upload-test/Guide.json', 'gpt-3.5-turbo', '') on conflict do nothing").run();
  });
}

/** Runs a statement on the e2e server's SQLite database (to plant content a test needs). */
export function withE2eDatabase<T>(use: (db: Database.Database) => T): T {
  const db = new Database(path.join(databaseDir, "app.db"));
  db.pragma("busy_timeout = 5000");
  try {
    return use(db);
  } finally {
    db.close();
  }
}

const e2eKeys = dataKeyring(Buffer.from(e2eDataKey, "base64"));

/** An interview column's value as the e2e servers store it (sealed with their key), and back. */
export const sealedColumn = (column: SealedInterviewColumn, interviewId: string, plain: string) => sealText(plain, interviewPlace(column, interviewId), e2eKeys);
export const openedColumn = (column: SealedInterviewColumn, interviewId: string, stored: string) => openText(stored, interviewPlace(column, interviewId), e2eKeys);
/** An attachment's file name and bytes as the e2e servers store them. */
export const sealedFileName = (attachmentId: string, name: string) => sealText(name, attachmentNamePlace(attachmentId), e2eKeys);
export const openedFileName = (attachmentId: string, stored: string) => openText(stored, attachmentNamePlace(attachmentId), e2eKeys);
export const sealedFile = (bytes: Uint8Array) => sealBytes(bytes, e2eKeys);
export const openedFile = (bytes: Uint8Array) => openBytes(bytes, e2eKeys);

/** The public pages of the site, each with the h1 it shows. */
export const publicPages = [
  { path: "/", heading: "Legal help, one step at a time" },
  { path: "/about", heading: "About" },
  { path: "/issues/2", heading: "Criminal records and spent convictions" },
  { path: "/legal/terms-and-conditions/", heading: "Terms and Conditions" },
  { path: "/legal/privacy-policies", heading: "Privacy Policy" },
  { path: "/support/contact-us/", heading: "Contact Us" },
  { path: "/no/such/page", heading: "Sorry, we couldn't find this page." },
];

/** Plants interviews for the user with this email, as the viewer would have saved them; returns their ids, newest first. */
export function plantInterviews(
  email: string,
  rows: { issueId: number; status: "Draft" | "Completed"; daysAgo: number }[],
): string[] {
  return withE2eDatabase((db) => {
    const user = db.prepare("select id from users where email = ?").get(email) as { id: string } | undefined;
    if (!user) throw new Error(`no user ${email}`);
    const insert = db.prepare(
      "insert into interviews (id, user_id, issue_id, status, vars, engine_state, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?)",
    );
    const planted = rows.map((row) => {
      const id = crypto.randomUUID();
      const at = new Date(Date.now() - row.daysAgo * 86_400_000).toISOString();
      insert.run(id, user.id, row.issueId, row.status, sealedColumn("vars", id, "{}"), sealedColumn("engine_state", id, "{}"), at, at);
      return { id, at };
    });
    return planted.sort((a, b) => b.at.localeCompare(a.at)).map((p) => p.id);
  });
}

/** Moves a planted interview to a page of its guide (in a loop, to its `loopIndex` answer), as if the person had reached it. */
export function moveInterviewTo(interviewId: string, page: string, loopIndex: number | null = null): void {
  const state = { history: [{ interviewPage: page, repeatVarValue: loopIndex, outerLoopVarValue: null }] };
  withE2eDatabase((db) => db.prepare("update interviews set engine_state = ? where id = ?").run(sealedColumn("engine_state", interviewId, JSON.stringify(state)), interviewId));
}

/** An interview's answers in A2J's JSON form, as stored. */
export function interviewVars(interviewId: string): Record<string, { values: unknown[] }> {
  return withE2eDatabase((db) => {
    const row = db.prepare("select vars from interviews where id = ?").get(interviewId) as { vars: string } | undefined;
    if (!row) throw new Error(`no interview ${interviewId}`);
    return JSON.parse(openedColumn("vars", interviewId, row.vars)) as Record<string, { values: unknown[] }>;
  });
}

/** Sets an interview's answers (A2J's JSON form). */
export function setInterviewVars(interviewId: string, vars: Record<string, { name: string; type: string; repeating: boolean; values: unknown[] }>): void {
  withE2eDatabase((db) => db.prepare("update interviews set vars = ? where id = ?").run(sealedColumn("vars", interviewId, JSON.stringify(vars)), interviewId));
}

/** A Re-Entry Navigator interview (issue 2, or another issue running its guide) planted at its finishing page, after its name page. */
export function plantAtFinish(email: string, issueId = 2): string {
  const [id] = plantInterviews(email, [{ issueId, status: "Draft", daysAgo: 0 }]);
  const text = (name: string, value: string) => ({ name, type: "Text", repeating: false, values: [null, value] });
  const answers = {
    "client first name te": text("Client first name TE", "Ann"),
    "client last name te": text("Client last name TE", "Lee"),
    "user gender": { name: "User Gender", type: "MC", repeating: false, values: [null, "Female"] },
    "have job tf": { name: "Have job TF", type: "TF", repeating: false, values: [null, true] },
    "already released tf": { name: "Already released TF", type: "TF", repeating: false, values: [null, true] },
    "know po tf": { name: "Know PO TF", type: "TF", repeating: false, values: [null, true] },
    "finished basic info tf": { name: "Finished basic info TF", type: "TF", repeating: false, values: [null, true] },
  };
  // The path a person takes through the re-entry guide ticking no condition of release: a change on Check your
  // answers replays it, so it must be the path the guide's buttons and scripts really lead along.
  const history = ["1-Name and gender", "2-Release or pending?", "3-Know PO", "6-Conditions of release", "1-The End", "7-Finish instructions"].map((interviewPage) => ({ interviewPage, repeatVarValue: null, outerLoopVarValue: null }));
  withE2eDatabase((db) =>
    db
      .prepare("update interviews set vars = ?, engine_state = ? where id = ?")
      .run(sealedColumn("vars", id!, JSON.stringify(answers)), sealedColumn("engine_state", id!, JSON.stringify({ history })), id),
  );
  return id!;
}

/** Which server's database an operator command works on: the e2e server's unless a spec started its own. */
export interface OperatorTarget {
  databaseUrl: string;
  dataKey: string;
}

const e2eServerTarget: OperatorTarget = { databaseUrl: `file:${e2eDataDir}/app.db`, dataKey: e2eDataKey };

/**
 * An operator command from the built bundle (build/server/cli.js, which `npm start` built), as the container runs
 * it; `environment` adds settings (DATA_ENCRYPTION_OLD_KEYS during a rotation, say).
 */
export function operatorCommand(
  args: string[],
  target: OperatorTarget = e2eServerTarget,
  environment: Record<string, string> = {},
): { status: number | null; output: string } {
  const env = { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: target.databaseUrl, DATA_ENCRYPTION_KEY: target.dataKey, ...environment };
  const result = spawnSync(process.execPath, ["build/server/cli.js", ...args], { env, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** An operator command on the e2e server's database (`cli("admin", "grant", email)`). */
export const cli = (...args: string[]) => operatorCommand(args);

/** A PDF uploaded to an interview, named `<secret>.pdf` and holding the secret, stored sealed as the server stores it; returns its id. */
export function plantAttachment(email: string, interviewId: string, secret: string): string {
  const id = crypto.randomUUID();
  return withE2eDatabase((db) => {
    const user = db.prepare("select id from users where email = ?").get(email) as { id: string };
    const key = `${user.id}/${id}.pdf`;
    db.prepare("insert into attachments (id, user_id, interview_id, file_name, content_type, size, storage_key, created_at) values (?, ?, ?, ?, ?, ?, ?, ?)").run(
      id, user.id, interviewId, sealedFileName(id, `${secret}.pdf`), "application/pdf", 40, key, new Date().toISOString(),
    );
    // The bytes, where the server keeps them by default (app/storage/database-storage.server.ts).
    db.prepare("insert into attachment_files (attachment_id, bytes, written_at) values (?, ?, ?)").run(id, sealedFile(Buffer.from(`%PDF-1.4\n% ${secret}\n%%EOF\n`)), new Date().toISOString());
    return id;
  });
}
