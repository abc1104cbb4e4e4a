import { type ChildProcess, spawn } from "node:child_process";
import { rmSync } from "node:fs";
import { type S3StandIn, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, startS3StandIn } from "../support/s3-stand-in";
import { createAccount, uniqueEmail } from "./accounts";
import { expect, test as base } from "./fixtures";
import { e2eDataKey } from "../../playwright.config";
import { onServerData, openedFile, plantUploadIssue, withE2eDatabase } from "./support";
import { press, viewer } from "./viewer";
import { readablePdf } from "../support/pdf";
import { freePort } from "../support/app-process";

// Uploaded files in an S3-compatible bucket: the production build started with STORAGE_URL pointing at the
// local S3 stand-in (tests/support/s3-stand-in.ts, which checks every request's signature), one server per
// worker, on a data folder of its own.

interface BucketServer {
  url: string;
  dataDir: string;
  standIn: S3StandIn;
}

const test = base.extend<{}, { bucketServer: BucketServer }>({
  bucketServer: [
    async ({}, use, workerInfo) => {
      const standIn = await startS3StandIn({ bucketNames: ["e2e-files"] });
      const port = await freePort();
      // One per worker: the file's tests may run on two workers of one project at once.
      const dataDir = `./data/e2e-s3-${workerInfo.project.name}-${workerInfo.workerIndex}`;
      rmSync(dataDir, { recursive: true, force: true });
      const server: ChildProcess = spawn(process.execPath, ["server.js"], {
        env: {
          PATH: process.env.PATH,
          NODE_ENV: "production",
          DATA_ENCRYPTION_KEY: e2eDataKey,
          SESSION_SECRET: "e2e-session-secret-that-is-long-enough-0123456789",
          RATE_LIMIT_ADDRESS_FACTOR: "100",
          PORT: String(port),
          DATA_DIR: dataDir,
          DATABASE_URL: `file:${dataDir}/app.db`,
          STORAGE_URL: `s3://e2e-files/uploads?endpoint=${standIn.url}`,
          AWS_ACCESS_KEY_ID: S3_ACCESS_KEY_ID,
          AWS_SECRET_ACCESS_KEY: S3_SECRET_ACCESS_KEY,
        },
        stdio: ["ignore", "ignore", "inherit"],
      });
      const url = `http://localhost:${port}`;
      for (let i = 0; ; i++) {
        if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
        if (i > 300 || server.exitCode !== null) throw new Error(`the server with STORAGE_URL did not start (exit ${server.exitCode})`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await use({ url, dataDir, standIn });
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
      await standIn.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
    { scope: "worker" },
  ],
  baseURL: async ({ bucketServer }, use) => use(bucketServer.url),
});

test("a file uploaded in an interview is kept in the bucket, and its owner downloads it from there", async ({ page, bucketServer, axe }) => {
  onServerData(bucketServer.dataDir, plantUploadIssue);
  const email = uniqueEmail("bucket");
  await createAccount(page, email);
  await page.goto("/issues/900/interviews");
  const frame = viewer(page);
  const bytes = readablePdf(70_000, (i) => (i * 7) % 256);
  await frame.getByLabel(/Tenancy agreement/).setInputFiles({ name: "lease.pdf", mimeType: "application/pdf", buffer: bytes });
  await press(frame, "Continue");
  await expect(frame.getByText("Thank you. Your file is attached.")).toBeVisible();
  await axe();

  const attachment = onServerData(bucketServer.dataDir, () =>
    withE2eDatabase((db) => ({
      row: db.prepare("select a.id, a.storage_key from attachments a join users u on u.id = a.user_id where u.email = ?").get(email) as { id: string; storage_key: string },
      inDatabase: (db.prepare("select count(*) as n from attachment_files").get() as { n: number }).n,
    })),
  );
  expect(attachment.inDatabase).toBe(0);
  const object = bucketServer.standIn.buckets.get("e2e-files")!.get(`uploads/${attachment.row.storage_key}`);
  // The bucket holds the file sealed (docs/decisions/0019-data-encryption.md): nothing of it is readable there.
  expect(object?.bytes.includes(bytes.subarray(0, 64))).toBe(false);
  expect(openedFile(object!.bytes).equals(bytes)).toBe(true);
  expect(bucketServer.standIn.requests.some((request) => request.method === "PUT" && request.accessKeyId === S3_ACCESS_KEY_ID)).toBe(true);

  const download = await page.request.get(`/attachments/${attachment.row.id}`);
  expect(download.status()).toBe(200);
  expect((await download.body()).equals(bytes)).toBe(true);
});

test("an upload while the bucket is down is refused on the page with a message (no 500), and works once the bucket is back", async ({ page, bucketServer, axe }) => {
  onServerData(bucketServer.dataDir, plantUploadIssue);
  await createAccount(page, uniqueEmail("bucket-down"));
  await page.goto("/issues/900/interviews");
  const frame = viewer(page);
  const bytes = readablePdf(2_000);
  bucketServer.standIn.unavailable = true;
  try {
    await frame.getByLabel(/Tenancy agreement/).setInputFiles({ name: "lease.pdf", mimeType: "application/pdf", buffer: bytes });
    await press(frame, "Continue", { stays: true });
    await expect(frame.getByRole("alert")).toContainText("Your file could not be saved just now. Please try again in a few minutes.");
    await axe();
  } finally {
    bucketServer.standIn.unavailable = false;
  }
  await frame.getByLabel(/Tenancy agreement/).setInputFiles({ name: "lease.pdf", mimeType: "application/pdf", buffer: bytes });
  await press(frame, "Continue");
  await expect(frame.getByText("Thank you. Your file is attached.")).toBeVisible();
});
