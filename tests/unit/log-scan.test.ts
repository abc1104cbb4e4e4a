import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scanLog, scanServerLogs, suitePersonalData } from "../support/log-scan";
import { captureLogs, logger } from "~/observability/log.server";

// The check the e2e run ends with (tests/e2e/global-teardown.ts): it must find personal data in a log line
// that holds it, and nothing in the lines the application writes.

const dir = mkdtempSync(path.join(tmpdir(), "lsh-log-scan-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const personal = { emails: ["auth-1a2b3c4d@example.org"], names: ["Ana", "Lim", "Bo"], tokens: ["a1B2c3D4e5F6g7H8"] };

describe("the log scan", () => {
  it("finds an email address (anyone's), a test person's name and an emailed token, and says where without repeating them", () => {
    const log = [
      '{"level":"info","msg":"request","route":"/viewer","status":302}',
      '{"level":"info","component":"mail","msg":"\\"Verify your email\\" to auth-1a2b3c4d@example.org stored in the outbox"}',
      '{"level":"warn","msg":"refused POST /x 400: support@legal-aid.example.net"}',
      '{"level":"info","msg":"signed up: Ana Lim"}',
      '{"level":"info","msg":"GET /auth/sign-up/password?token=a1B2c3D4e5F6g7H8"}',
      '{"level":"info","msg":"Analysis of limits done for Bo"}',
    ].join("\n");
    const findings = scanLog("server.log", log, personal);
    expect(findings.map((finding) => [finding.line, finding.what])).toEqual([
      [2, "email"],
      [2, "email"],
      [3, "email"],
      [4, "name"],
      [4, "name"],
      [5, "token"],
    ]);
    expect(JSON.stringify(findings)).not.toContain("auth-1a2b3c4d@example.org");
    expect(JSON.stringify(findings)).not.toContain("a1B2c3D4e5F6g7H8");
  });

  it("finds nothing in what the application's logger writes, even when handed an address or a link's token", () => {
    const capture = captureLogs();
    try {
      logger("mail").info("a message was stored for auth-1a2b3c4d@example.org", { link: "/auth/sign-up/password?token=a1B2c3D4e5F6g7H8" });
      expect(scanLog("captured", capture.text(), personal)).toEqual([]);
    } finally {
      capture.restore();
    }
  });

  it("reads the people's addresses and the emailed links' tokens from the outbox, and scans every log file", () => {
    const dataDir = path.join(dir, "e2e");
    mkdirSync(path.join(dataDir, "outbox"), { recursive: true });
    writeFileSync(
      path.join(dataDir, "outbox", "1-m.json"),
      JSON.stringify({ to_address: "reset-0f0f0f0f@example.org", reply_to: "asker@example.com", text: "Choose a password: http://localhost:3210/auth/reset-password/password?code=Zz9Yy8Xx7Ww6Vv5U&x=1" }),
    );
    const found = suitePersonalData([dataDir]);
    expect(found.emails.sort()).toEqual(["asker@example.com", "reset-0f0f0f0f@example.org"]);
    expect(found.tokens).toEqual(["Zz9Yy8Xx7Ww6Vv5U"]);
    expect(found.names).toContain("Ana");
    const logDir = path.join(dir, "logs");
    mkdirSync(logDir);
    writeFileSync(path.join(logDir, "app.log"), '{"msg":"request","route":"/"}\n{"msg":"GET /auth/reset-password/password?code=Zz9Yy8Xx7Ww6Vv5U"}\n');
    writeFileSync(path.join(logDir, "no-ai.log"), '{"msg":"request","route":"/"}\n');
    const scan = scanServerLogs(logDir, [dataDir]);
    expect(scan.files).toHaveLength(2);
    expect(scan.lines).toBe(3);
    expect(scan.findings).toMatchObject([{ file: path.join(logDir, "app.log"), line: 2, what: "token" }]);
  });
});
