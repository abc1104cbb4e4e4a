import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { zipSync } from "fflate";
import { e2eDataDir, e2eDataKey } from "../../playwright.config";
import { uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { cli, openedFile, plantUploadIssue, withE2eDatabase } from "./support";
import { press, viewer } from "./viewer";
import { readablePdf } from "../support/pdf";
import { plantSignedIn } from "./people";

// The operator commands from the built bundle (build/server/cli.js, which `npm start` has just built), the
// way the container runs them: plain node, no development tools, on the running server's database.
const cliEnvironment = { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: `file:${e2eDataDir}/app.db`, DATA_ENCRYPTION_KEY: e2eDataKey };

/** The same, without blocking the test: the browser goes on while the command runs. */
function cliWhileBrowsing(...args: string[]) {
  return new Promise<{ status: number; output: string }>((resolve) => {
    execFile(process.execPath, ["build/server/cli.js", ...args], { env: cliEnvironment, encoding: "utf8" }, (error, stdout, stderr) =>
      resolve({ status: error ? Number(error.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

test("an operator imports a guide zip while the server runs, and a signed-in person previews it", async ({ page, axe }, testInfo) => {
  const dir = mkdtempSync(path.join(tmpdir(), "lsh-e2e-cli-"));
  try {
    const folder = "tests/fixtures/upload-guide";
    const zip = path.join(dir, "guide.zip");
    writeFileSync(zip, zipSync(Object.fromEntries(readdirSync(folder).map((name) => [`upload-guide/${name}`, readFileSync(path.join(folder, name))]))));
    const guideId = `cli-guide-${testInfo.project.name}`;

    expect(cli("guide", "import", zip)).toMatchObject({ status: 2, output: expect.stringContaining("Usage: node build/server/cli.js") });
    expect(cli("guide", "import", zip, "--id", guideId, "--issue", "999")).toMatchObject({ status: 1, output: expect.stringContaining("There is no issue 999.") });
    const imported = cli("guide", "import", zip, "--id", guideId);
    expect(imported, imported.output).toMatchObject({ status: 0, output: expect.stringContaining(`guide "Upload test guide" imported as ${guideId}`) });

    await plantSignedIn(page, uniqueEmail("cli"));
    await page.goto(`/preview/${guideId}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Preview: Upload test guide");
    await expect(viewer(page).getByText("Please upload your tenancy agreement.")).toBeVisible();
    await axe();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an operator backs up the database while a person uploads and saves, and the backup holds the interview and the file", async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), "lsh-e2e-backup-"));
  try {
    plantUploadIssue();
    const email = uniqueEmail("backup");
    await plantSignedIn(page, email);
    await page.goto("/issues/900/interviews");
    const frame = viewer(page);
    const bytes = readablePdf(300_000, (i) => (i * 13) % 256);
    await frame.getByLabel(/Tenancy agreement/).setInputFiles({ name: "lease.pdf", mimeType: "application/pdf", buffer: bytes });
    await press(frame, "Continue");
    await expect(frame.getByText("Thank you. Your file is attached.")).toBeVisible();

    // The backup runs while the person goes back and forth, each step a save on the server.
    const target = path.join(dir, "backup.db");
    const backup = cliWhileBrowsing("db", "backup", target);
    for (let i = 0; i < 3; i++) {
      await press(frame, "Back");
      await press(frame, "Continue");
    }
    const result = await backup;
    expect(result, result.output).toMatchObject({ status: 0, output: expect.stringContaining("The uploaded files are in it") });
    expect(cli("db", "backup", target)).toMatchObject({ status: 1, output: expect.stringContaining("already exists") });

    const copy = new Database(target, { readonly: true });
    try {
      expect(copy.pragma("integrity_check", { simple: true })).toBe("ok");
      const found = copy
        .prepare("select i.status, f.bytes from attachments a join users u on u.id = a.user_id join interviews i on i.id = a.interview_id join attachment_files f on f.attachment_id = a.id where u.email = ?")
        .get(email) as { status: string; bytes: Buffer } | undefined;
      expect(found?.status).toBe("Draft");
      expect(openedFile(found!.bytes).equals(bytes)).toBe(true);
    } finally {
      copy.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
