import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { type AppProcess, freePort, startApp } from "../support/app-process";

// Issue 24, part 1: the client address every per-address limit counts (docs/decisions/0034). A production
// server reached directly, as `docker run -p 3000:3000` exposes it, must not believe an X-Forwarded-For the
// client writes itself; behind a proxy that TRUST_PROXY names, the proxy's header gives the address. Raw HTTP,
// no browser: the spec runs in one project only. RATE_LIMIT_ADDRESS_FACTOR=0.1 brings each per-address limit
// down to a few requests (sign-up 1, contact 1, reset link 2, sign-in 5), so four limits are driven to 429.

type Attempt = { name: string; path: string; allowed: number; form: (n: number) => Record<string, string> };

const attempts: Attempt[] = [
  { name: "sign-up", path: "/auth/sign-up", allowed: 1, form: (n) => ({ firstName: "Ana", lastName: "Lim", email: `forged-${n}-${Date.now()}@example.org`, phoneCountry: "SG", phoneNumber: "91234567" }) },
  { name: "contact", path: "/support/contact-us", allowed: 1, form: (n) => ({ firstName: "Ana", lastName: "Lim", email: "ana@example.org", message: `Message ${n}` }) },
  { name: "reset link", path: "/auth/reset-password", allowed: 2, form: (n) => ({ email: `nobody-${n}@example.org` }) },
  { name: "sign-in", path: "/auth/sign-in", allowed: 5, form: (n) => ({ email: `nobody-${n}@example.org`, password: "not the password" }) },
];

async function post(server: AppProcess, where: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}${where}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form).toString(),
    redirect: "manual",
  });
  return { status: response.status, text: await response.text() };
}

/** The addresses the server counted for a kind of attempt (rate_limits' buckets are `<kind>:address:<address>`). */
function countedAddresses(dataDir: string, kind: string): string[] {
  const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
  try {
    const rows = db.prepare("select bucket from rate_limits where bucket like ? order by bucket").all(`${kind}:address:%`) as { bucket: string }[];
    return rows.map((row) => row.bucket.slice(`${kind}:address:`.length));
  } finally {
    db.close();
  }
}

const forged = (n: number) => `203.0.113.${n}`;

test("without TRUST_PROXY a forged X-Forwarded-For gives no fresh address to any limit; with it the proxy's header is used", async () => {
  test.setTimeout(90_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "lsh-client-address-"));
  const env = { RATE_LIMIT_ADDRESS_FACTOR: "0.1" };
  let server: AppProcess | undefined;
  try {
    // Reached directly: every request writes a new address of its own, and each limit still refuses.
    server = await startApp({ port: await freePort(), dataDir, databaseUrl: `file:${dataDir}/app.db`, env });
    let n = 0;
    for (const attempt of attempts) {
      for (let i = 0; i < attempt.allowed; i++) {
        const answer = await post(server, attempt.path, attempt.form(++n), { "x-forwarded-for": forged(n) });
        expect(answer.status, `${attempt.name} ${i + 1}`).not.toBe(429);
      }
      const refused = await post(server, attempt.path, attempt.form(++n), { "x-forwarded-for": forged(n) });
      expect(refused.status, `${attempt.name} past its limit, from a "new" address`).toBe(429);
      expect(refused.text).toContain("Too many attempts. Please wait");
    }
    for (const kind of ["sign-up", "contact", "email", "sign-in"]) {
      expect(countedAddresses(dataDir, kind), kind).toEqual(["127.0.0.1"]);
    }
    // X-Forwarded-Proto and X-Forwarded-Host are not believed either: a form "from" the forged host is refused.
    const forgedHost = { origin: "https://forged.example", "x-forwarded-host": "forged.example", "x-forwarded-proto": "https" };
    const refusedHost = await post(server, "/support/contact-us", attempts[1]!.form(0), forgedHost);
    expect(refusedHost.status).toBe(403);
    expect(server.output()).toContain("TRUST_PROXY is unset");
    await server.stop();

    // The same data behind one trusted proxy (TRUST_PROXY=1): the address is the one the proxy appended last.
    server = await startApp({ port: await freePort(), dataDir, databaseUrl: `file:${dataDir}/app.db`, env: { ...env, TRUST_PROXY: "1" } });
    for (const attempt of attempts) {
      const client = forged(100 + attempts.indexOf(attempt));
      for (let i = 0; i < attempt.allowed; i++) {
        const answer = await post(server, attempt.path, attempt.form(++n), { "x-forwarded-for": client });
        expect(answer.status, `${attempt.name} ${i + 1} from ${client}`).not.toBe(429);
      }
      // A client that writes an address of its own in front of the proxy's gets no fresh count either.
      const refused = await post(server, attempt.path, attempt.form(++n), { "x-forwarded-for": `198.51.100.${n}, ${client}` });
      expect(refused.status, `${attempt.name} past its limit from ${client}`).toBe(429);
      const another = await post(server, attempt.path, attempt.form(++n), { "x-forwarded-for": forged(200 + attempts.indexOf(attempt)) });
      expect(another.status, `${attempt.name} from another client behind the proxy`).not.toBe(429);
    }
    expect(countedAddresses(dataDir, "sign-up")).toEqual(["127.0.0.1", forged(100), forged(200)]);
    expect(countedAddresses(dataDir, "contact")).toEqual(["127.0.0.1", forged(101), forged(201)]);
    // The proxy's X-Forwarded-Proto and X-Forwarded-Host are believed: the form's origin matches what it reports.
    const proxied = await post(server, "/support/contact-us", attempts[1]!.form(0), { ...forgedHost, "x-forwarded-for": "198.51.100.250" });
    expect(proxied.status).toBe(302);
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
