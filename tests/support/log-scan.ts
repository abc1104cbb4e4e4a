import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";

// The check that no server log of the e2e run holds personal data (issue 24): every email address, the test
// people's names, and the tokens of the links emailed to them. The servers write their output to
// E2E_LOG_DIR (playwright.config.ts, tests/support/app-process.ts); tests/e2e/global-teardown.ts runs the
// check after the suite and fails the run on any finding.

/** Where every server of an e2e run writes its output (stdout and stderr), one file each. */
export const E2E_LOG_DIR = "./data/e2e-logs";

/** The first names and family names the specs type (tests/e2e/accounts.ts's defaults, contact, interviews). */
export const SUITE_NAMES = ["Ana", "Lim", "Maria", "Ann", "Ada"];

/** An email address as the log's own scrubber recognises one (app/observability/log.server.ts). */
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

export interface PersonalData {
  emails: string[];
  names: string[];
  tokens: string[];
}

export interface Finding {
  file: string;
  line: number;
  /** What was found, and which kind: never printed whole (it is personal data, and the report is a log too). */
  what: "email" | "name" | "token";
  sample: string;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
/** Shown in a finding: enough to find it, not the value itself. */
const masked = (value: string) => (value.length <= 4 ? "*".repeat(value.length) : `${value.slice(0, 2)}…${value.slice(-2)} (${value.length} characters)`);

/**
 * Every line of `text` that holds an email address (any: the test people's and everyone else's), a name of the
 * list (as a whole word, case as written) or a token of the list.
 */
export function scanLog(file: string, text: string, personal: PersonalData): Finding[] {
  const findings: Finding[] = [];
  const names = personal.names.filter((name) => name.trim().length >= 3).map((name) => ({ name, pattern: new RegExp(`\\b${escape(name.trim())}\\b`) }));
  const tokens = personal.tokens.filter((token) => token.length >= 8);
  const emails = personal.emails.map((email) => email.toLowerCase());
  text.split("\n").forEach((content, index) => {
    const line = index + 1;
    for (const found of content.match(EMAIL) ?? []) findings.push({ file, line, what: "email", sample: masked(found) });
    const lower = content.toLowerCase();
    for (const email of emails) {
      // The address's own part before the @, when it is distinctive (uniqueEmail's label-uuid), caught even
      // if the rest was cut off.
      const local = email.split("@")[0] ?? "";
      if (local.length >= 12 && lower.includes(local)) findings.push({ file, line, what: "email", sample: masked(local) });
    }
    for (const { name, pattern } of names) if (pattern.test(content)) findings.push({ file, line, what: "name", sample: masked(name) });
    for (const token of tokens) if (content.includes(token)) findings.push({ file, line, what: "token", sample: masked(token) });
  });
  return findings;
}

/**
 * The test people's data, from what the servers of the run kept: each data folder's outbox (the addresses
 * mail went to and came from, and the tokens of the links in it) and its SQLite database (accounts' names and
 * addresses), plus the names the specs type.
 */
export function suitePersonalData(dataDirs: string[]): PersonalData {
  const emails = new Set<string>();
  const names = new Set<string>(SUITE_NAMES);
  const tokens = new Set<string>();
  for (const dir of dataDirs) {
    const outbox = path.join(dir, "outbox");
    if (existsSync(outbox)) {
      for (const file of readdirSync(outbox).filter((name) => name.endsWith(".json"))) {
        let message: { to_address?: string; reply_to?: string | null; text?: string };
        try {
          message = JSON.parse(readFileSync(path.join(outbox, file), "utf8")) as typeof message;
        } catch {
          continue;
        }
        for (const address of [message.to_address, message.reply_to]) if (address) emails.add(address);
        for (const match of (message.text ?? "").matchAll(/[?&](?:token|code)=([^&\s]+)/g)) tokens.add(decodeURIComponent(match[1]!));
      }
    }
    const databaseFile = path.join(dir, "app.db");
    if (!existsSync(databaseFile)) continue;
    const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
    try {
      db.pragma("busy_timeout = 5000");
      for (const user of db.prepare("select email, first_name, last_name from users").all() as { email: string; first_name: string; last_name: string }[]) {
        emails.add(user.email);
        names.add(user.first_name);
        names.add(user.last_name);
      }
    } finally {
      db.close();
    }
  }
  // The seed's and the configuration's own addresses are not people's, and none is written to a log either.
  return { emails: [...emails], names: [...names], tokens: [...tokens] };
}

/** Scans every log file in `logDir` for the personal data of the servers whose data is in `dataDirs`. */
export function scanServerLogs(logDir: string, dataDirs: string[]): { files: string[]; lines: number; findings: Finding[]; personal: PersonalData } {
  const personal = suitePersonalData(dataDirs);
  const files = existsSync(logDir) ? readdirSync(logDir).filter((name) => name.endsWith(".log")).map((name) => path.join(logDir, name)) : [];
  let lines = 0;
  const findings = files.flatMap((file) => {
    const text = readFileSync(file, "utf8");
    lines += text.split("\n").length - 1;
    return scanLog(file, text, personal);
  });
  return { files, lines, findings, personal };
}

/** The data folders of an e2e run: the webServers' and those of servers the specs start under ./data/e2e-*. */
export function e2eDataDirs(known: string[]): string[] {
  const root = "./data";
  const started = existsSync(root) ? readdirSync(root).filter((name) => name.startsWith("e2e-") && name !== path.basename(E2E_LOG_DIR)).map((name) => path.join(root, name)) : [];
  return [...new Set([...known, ...started])];
}
