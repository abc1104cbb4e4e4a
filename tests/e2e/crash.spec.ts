import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import Database from "better-sqlite3";
import { type AppProcess, startApp, TEST_DATA_KEY, TEST_SESSION_SECRET } from "../support/app-process";
import { STEP_ISSUE_ID, type StepPerson, stepForm } from "../support/viewer-people";

// Issue 13, part 7: 50 people save pages of their interviews while the server (SQLite, the default) is killed
// with SIGKILL; after a restart every save the server acknowledged is there and the database is intact.
// Raw HTTP, no browser: it runs in the js project only (playwright.config.ts).

const port = Number(process.env.E2E_PORT ?? 3210) + 3;
const people = 50;
const rounds = 3;

/**
 * The newest save an interview holds, read back through the restarted server (the ANX answer file): each
 * save numbers itself, page A in its amount, page B in its story (tests/support/viewer-people.ts).
 */
async function newestSave(server: AppProcess, person: StepPerson, interviewId: string): Promise<number> {
  const response = await fetch(`${server.url}/interviews/${interviewId}/answers`, { headers: { cookie: person.cookie } });
  expect(response.status).toBe(200);
  const anx = await response.text();
  const amount = /<Answer name="Amount NU">\s*<NumValue>(\d+)<\/NumValue>/.exec(anx)?.[1];
  const story = /<TextValue>Save (\d+)<\/TextValue>/.exec(anx)?.[1];
  return Math.max(Number(amount ?? 0), Number(story ?? 0));
}

test("every save acknowledged before a SIGKILL is there after the restart, and the database is intact", async () => {
  test.setTimeout(120_000);
  const dir = mkdtempSync(path.join(tmpdir(), "lsh-crash-"));
  const databaseFile = path.join(dir, "app.db");
  const databaseUrl = `file:${databaseFile}`;
  let server: AppProcess | null = null;
  try {
    // A fresh interview per person and round: within a round each person's saves run in order, A, B, A…
    const made = spawnSync("node_modules/.bin/tsx", ["tests/support/viewer-people.ts"], {
      env: { PATH: process.env.PATH, NODE_ENV: "production", DATA_DIR: dir, DATABASE_URL: databaseUrl, SESSION_SECRET: TEST_SESSION_SECRET, DATA_ENCRYPTION_KEY: TEST_DATA_KEY, PEOPLE: String(people), INTERVIEWS: String(rounds) },
      encoding: "utf8",
    });
    expect(made.status, made.stderr).toBe(0);
    const persons = JSON.parse(made.stdout) as StepPerson[];
    const startedAt = Date.now();
    server = await startApp({ port, dataDir: dir, databaseUrl });
    const totals = { acknowledged: 0, lost: 0 };

    for (let round = 0; round < rounds; round++) {
      const running = server;
      const roundStartedAt = Date.now();
      const acknowledged = new Map<string, number>();
      const refused: string[] = [];
      let killed = false;
      const savePages = async (person: StepPerson) => {
        const interviewId = person.interviewIds[round]!;
        for (let save = 1; !killed; save++) {
          let status: number;
          try {
            const response = await fetch(`${running.url}/viewer?issueId=${STEP_ISSUE_ID}&interviewId=${interviewId}`, {
              method: "POST",
              headers: { cookie: person.cookie, "content-type": "application/x-www-form-urlencoded" },
              body: stepForm(save % 2 ? "A" : "B", save),
              redirect: "manual",
            });
            status = response.status;
          } catch {
            return; // the server is gone: this save was never acknowledged
          }
          if (status !== 302) return void refused.push(`${interviewId} save ${save}: ${status}`);
          acknowledged.set(interviewId, save);
        }
      };
      const saving = persons.map(savePages);
      // Killed with saves in flight, once everybody has had some acknowledged (later in each round), however
      // slow the machine is.
      const wanted = 2 + 2 * round;
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline && !(acknowledged.size === people && Math.min(...acknowledged.values()) >= wanted)) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 200));
      const killedAt = Date.now();
      await running.kill();
      killed = true;
      await Promise.all(saving);
      expect(refused, "every save before the kill is acknowledged").toEqual([]);

      server = await startApp({ port, dataDir: dir, databaseUrl });
      const restartedAt = Date.now();
      const sqlite = new Database(databaseFile, { readonly: true });
      try {
        expect(sqlite.pragma("integrity_check", { simple: true })).toBe("ok");
      } finally {
        sqlite.close();
      }
      let lost = 0;
      for (const person of persons) {
        const interviewId = person.interviewIds[round]!;
        const last = acknowledged.get(interviewId) ?? 0;
        const stored = await newestSave(server, person, interviewId);
        // At most one save per person was in flight, unacknowledged, when the server died: it may have landed.
        if (stored < last) lost++;
        expect(stored, `interview ${interviewId}`).toBeLessThanOrEqual(last + 1);
      }
      const count = [...acknowledged.values()].reduce((sum, n) => sum + n, 0);
      console.log(`crash round ${round + 1}: ${count} saves acknowledged by ${acknowledged.size} people before SIGKILL, ${lost} lost, integrity_check ok (saving ${killedAt - roundStartedAt} ms, restart ${restartedAt - killedAt} ms, check ${Date.now() - restartedAt} ms)`);
      expect(acknowledged.size, "every person had saves acknowledged").toBe(people);
      totals.acknowledged += count;
      totals.lost += lost;
      expect(lost).toBe(0);
    }
    console.log(`crash test: ${rounds} rounds, ${totals.acknowledged} acknowledged saves, ${totals.lost} lost (${((Date.now() - startedAt) / 1000).toFixed(1)} s after the set-up)`);
  } finally {
    await server?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
