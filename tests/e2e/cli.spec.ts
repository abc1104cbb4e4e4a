import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { zipSync } from "fflate";
import { e2eDataDir, e2eDataKey } from "../../playwright.config";
import { createAccount, uniqueEmail } from "./accounts";
import { expect, test } from "./fixtures";
import { viewer } from "./viewer";

// The operator commands from the built bundle (build/server/cli.js, which `npm start` has just built), the
// way the container runs them: plain node, no development tools, on the running server's database.
function cli(...args: string[]) {
  const result = spawnSync(process.execPath, ["build/server/cli.js", ...args], {
    env: { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: `file:${e2eDataDir}/app.db`, DATA_ENCRYPTION_KEY: e2eDataKey },
    encoding: "utf8",
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
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

    await createAccount(page, uniqueEmail("cli"));
    await page.goto(`/preview/${guideId}`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText("Preview: Upload test guide");
    await expect(viewer(page).getByText("Please upload your tenancy agreement.")).toBeVisible();
    await axe();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
