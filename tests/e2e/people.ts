import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Browser, BrowserContext, Page } from "@playwright/test";
import { createCookie } from "react-router";
import { e2eSessionSecret } from "../../playwright.config";
import { uniqueEmail } from "./accounts";
import { withE2eDatabase } from "./support";

/**
 * People already signed in, planted in the e2e server's database with a session and its cookie: for the tests
 * whose subject is not signing up or signing in (tests/e2e/accounts.ts walks those), a person costs one insert
 * instead of a sign-up, an email, a password and a two-factor set-up.
 */
export interface SignedInPerson {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  context: BrowserContext;
  page: Page;
  /** The Cookie header of their session, for raw requests. */
  cookie: string;
}

export interface PersonOptions {
  firstName?: string;
  lastName?: string;
  role?: "person" | "helper" | "administrator";
  /** For a helper: the countries and issues they help with (none: every country and issue). */
  helps?: { countries?: number[]; issues?: number[] };
}

export async function signedInPerson(browser: Browser, javaScriptEnabled: boolean, label: string, options: PersonOptions = {}): Promise<SignedInPerson> {
  const context = await browser.newContext({ javaScriptEnabled });
  const planted = await plantSession(context, uniqueEmail(label), { firstName: "Sam", lastName: "Tester", ...options });
  return { ...planted, context, page: await context.newPage() };
}

/**
 * The person createAccount makes (Ana Lim, a verified email, two-factor on), planted and signed in on this page's
 * context in one insert: for the tests whose subject is an interview, a document or the account area rather than
 * signing up. The page stays the test's own, so the fixtures bound to it (axe) see what it shows. No password or
 * authenticator is set: a test that signs out and back in uses createAccount. Like createAccount, it ends on the
 * home page.
 */
export async function plantSignedIn(page: Page, email: string, options: PersonOptions = {}): Promise<Omit<SignedInPerson, "context" | "page">> {
  const person = await plantSession(page.context(), email, options);
  // Where createAccount leaves the person: on the home page, signed in.
  await page.goto("/");
  return person;
}

async function plantSession(context: BrowserContext, email: string, options: PersonOptions): Promise<Omit<SignedInPerson, "context" | "page">> {
  const id = randomUUID();
  const firstName = options.firstName ?? "Ana";
  const lastName = options.lastName ?? "Lim";
  const sessionId = randomBytes(32).toString("base64url");
  const now = new Date();
  withE2eDatabase((db) => {
    db.prepare(
      "insert into users (id, first_name, last_name, email, email_key, phone_country, phone_code, phone_number, password_hash, email_verified_at, totp_secret, two_factor_enabled, totp_last_step, role, created_at, updated_at) values (?, ?, ?, ?, ?, 'SG', '+65', '91234567', null, ?, null, 1, null, ?, ?, ?)",
    ).run(id, firstName, lastName, email, email.toLowerCase(), now.toISOString(), options.role ?? "person", now.toISOString(), now.toISOString());
    if (options.role === "helper") {
      const limit = db.prepare("insert into helper_limits (user_id, country_id, issue_id) values (?, ?, ?)");
      const countries = options.helps?.countries ?? [];
      const issues = options.helps?.issues ?? [];
      for (const country of countries) limit.run(id, country, null);
      for (const issue of issues) limit.run(id, null, issue);
      if (!countries.length && !issues.length) limit.run(id, null, null);
    }
    db.prepare("insert into sessions (id_hash, user_id, pending_user_id, pending_totp_secret, created_at, expires_at, last_seen_at) values (?, ?, null, null, ?, ?, ?)").run(
      createHash("sha256").update(sessionId).digest("base64url"),
      id,
      now.toISOString(),
      new Date(now.getTime() + 7 * 86_400_000).toISOString(),
      now.toISOString(),
    );
  });
  const setCookie = await createCookie("session", { secrets: [e2eSessionSecret], path: "/", httpOnly: true, sameSite: "lax" }).serialize(sessionId);
  const value = setCookie.slice("session=".length, setCookie.indexOf(";"));
  await context.addCookies([{ name: "session", value, url: `http://localhost:${Number(process.env.E2E_PORT ?? 3210)}`, httpOnly: true, sameSite: "Lax" }]);
  return { id, email, firstName, lastName, cookie: `session=${value}` };
}
