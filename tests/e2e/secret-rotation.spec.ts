import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import * as OTPAuth from "otpauth";
import { type AppProcess, freePort, startApp } from "../support/app-process";
import { readablePdf } from "../support/pdf";
import { onServerData, operatorCommand, plantUploadIssue } from "./support";

// Issue 24, part 2, through the real server (docs/decisions/0033-secrets-and-rotation.md): people sign up with an
// authenticator and recovery codes and upload a file in an interview; then each secret is rotated in turn, the
// production server restarted each time, and every person still signs in with their authenticator and with a
// recovery code, and opens their answers and their file. Raw HTTP with a cookie jar per person (no browser):
// the spec runs in one project only; the data layer's side is server/secrets-migration.test.ts.

const PASSWORD = "correct horse 42";
const secrets = { first: "first-session-secret-0123456789-abcdefghijkl", second: "second-session-secret-0123456789-abcdefghij" };
const dataKeys = { first: Buffer.alloc(32, 0x31).toString("base64"), second: Buffer.alloc(32, 0x32).toString("base64") };

/** One person's browser, as far as the server can tell: a cookie jar. */
class Client {
  readonly cookies = new Map<string, string>();
  constructor(readonly server: () => AppProcess) {}

  async send(where: string, body?: URLSearchParams | FormData): Promise<{ status: number; location: string; text: string; bytes: Buffer; headers: Headers }> {
    const response = await fetch(`${this.server().url}${where}`, {
      method: body ? "POST" : "GET",
      headers: { cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
      body,
      redirect: "manual",
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ""] = cookie.split(";");
      const [name = "", value = ""] = pair.split("=");
      if (/Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(cookie)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    return { status: response.status, location: response.headers.get("location") ?? "", text: bytes.toString("utf8"), bytes, headers: response.headers };
  }

  post(where: string, fields: Record<string, string>) {
    return this.send(where, new URLSearchParams(fields));
  }
}

interface Person {
  email: string;
  client: Client;
  secret: string;
  codes: string[];
  interviewId: string;
  attachmentId: string;
  file: Buffer;
}

const code = (secret: string) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate();

function emailedLink(dataDir: string, email: string): string {
  const outbox = path.join(dataDir, "outbox");
  const texts = readdirSync(outbox).map((name) => JSON.parse(readFileSync(path.join(outbox, name), "utf8")) as { to_address: string; text: string });
  const url = texts.find((message) => message.to_address === email)?.text.match(/https?:\/\/\S+/)?.[0];
  if (!url) throw new Error(`no email to ${email}`);
  return new URL(url).pathname + new URL(url).search;
}

test("rotating the session secret and the data key: every person still signs in with their authenticator and a recovery code, and opens their answers and file", async () => {
  test.setTimeout(120_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "lsh-rotation-"));
  const databaseUrl = `file:${dataDir}/app.db`;
  let server: AppProcess | undefined;
  const current = () => server!;
  const start = async (env: Record<string, string>) => {
    await server?.stop();
    server = await startApp({ port: await freePort(), dataDir, databaseUrl, env: { RATE_LIMIT_ADDRESS_FACTOR: "100", ...env } });
  };
  // Each code works once (its 30-second step is recorded): the step is forgotten between starts, so one window
  // serves every phase instead of the test waiting for the next.
  const forgetUsedCodes = () => {
    const db = new Database(path.join(dataDir, "app.db"));
    db.prepare("update users set totp_last_step = null").run();
    db.close();
  };

  async function signUp(email: string): Promise<Person> {
    const client = new Client(current);
    expect((await client.post("/auth/sign-up", { firstName: "Ana", lastName: "Lim", email, phoneCountry: "SG", phoneNumber: "91234567" })).status).toBe(302);
    const link = emailedLink(dataDir, email);
    const code0 = new URL(link, "http://x").searchParams.get("code")!;
    expect((await client.post(link, { code: code0, password: PASSWORD, confirmPassword: PASSWORD })).location).toBe("/auth/setup-2fa");
    const secret = /id="secret-key"[^>]*>([A-Z2-7]+)</.exec((await client.send("/auth/setup-2fa")).text)![1]!;
    expect((await client.post("/auth/setup-2fa", { code: code(secret) })).location).toBe("/account/recovery-codes");
    const codes = [...(await client.send("/account/recovery-codes")).text.matchAll(/<li><code>([0-9a-z-]+)<\/code><\/li>/g)].map((m) => m[1]!);
    expect(codes).toHaveLength(10);

    // An interview that keeps an uploaded file, through the viewer as the browser would post it without script.
    const start = "/viewer?issueId=900&interviewId=";
    const page = (await client.send(start)).text;
    const fileInput = /<input[^>]*type="file"[^>]*name="([^"]+)"/.exec(page)?.[1] ?? /<input[^>]*name="([^"]+)"[^>]*type="file"/.exec(page)![1]!;
    const file = readablePdf(2_000, (i) => (i * 31 + email.length) % 256);
    const form = new FormData();
    form.set("_page", "Upload");
    form.set(fileInput, new File([file], `lease-${email}.pdf`, { type: "application/pdf" }));
    form.set("_button", "0");
    const saved = await client.send(start, form);
    expect(saved.status, saved.text.slice(0, 300)).toBe(302);
    const db = new Database(path.join(dataDir, "app.db"), { readonly: true });
    const row = db.prepare("select a.interview_id, a.id from attachments a join users u on u.id = a.user_id where u.email = ?").get(email) as { interview_id: string; id: string };
    db.close();
    return { email, client, secret, codes, interviewId: row.interview_id, attachmentId: row.id, file };
  }

  /** What the person's signed-in browser reaches: the interview's answers (ANX), the uploaded file and its name. */
  async function opensAnswersAndFile(person: Person, when: string) {
    const answers = await person.client.send(`/interviews/${person.interviewId}/answers`);
    expect(answers.status, `${person.email}'s answers ${when}`).toBe(200);
    expect(answers.text).toContain(`<Answer name="Evidence AT"><TextValue>attachments/${person.attachmentId}.pdf</TextValue>`);
    expect(answers.text).toContain("<Answer name=\"A2J Bookmark\"><TextValue>Done</TextValue>");
    const file = await person.client.send(`/attachments/${person.attachmentId}`);
    expect(file.status, `${person.email}'s file ${when}`).toBe(200);
    expect(file.bytes.equals(person.file), `${person.email}'s file ${when}`).toBe(true);
    expect(file.headers.get("content-disposition")).toBe(`attachment; filename="lease-${person.email.replace("@", "_")}.pdf"`);
  }

  /** A fresh browser signs in: password, then the authenticator's code or a recovery code. */
  async function signsIn(person: Person, with_: "authenticator" | "recovery code", when: string) {
    person.client.cookies.clear();
    const password = await person.client.post("/auth/sign-in", { email: person.email, password: PASSWORD });
    expect(password.location, `${person.email}'s password ${when}`).toBe("/auth/sign-in/verify-2fa");
    const second =
      with_ === "authenticator"
        ? await person.client.post("/auth/sign-in/verify-2fa", { code: code(person.secret) })
        : await person.client.post("/auth/sign-in/recovery-code", { code: person.codes.shift()! });
    expect(second.location, `${person.email} with the ${with_} ${when}`).toBe(with_ === "authenticator" ? "/" : "/account/recovery-codes?used=1");
    await opensAnswersAndFile(person, `${when}, signed in with the ${with_}`);
  }

  try {
    await start({ SESSION_SECRET: secrets.first, DATA_ENCRYPTION_KEY: dataKeys.first });
    onServerData(dataDir, plantUploadIssue);
    const people = [await signUp("rotation-ana@example.org"), await signUp("rotation-bo@example.org")];
    const signedInBefore = new Map(people[0]!.client.cookies);

    // 1. A new session secret, the old one kept: a cookie it signed still works; everyone signs in.
    await start({ SESSION_SECRET: `${secrets.second},${secrets.first}`, DATA_ENCRYPTION_KEY: dataKeys.first });
    forgetUsedCodes();
    await opensAnswersAndFile(people[0]!, "with the cookie signed before the session secret changed");
    for (const person of people) {
      await signsIn(person, "authenticator", "after the session secret changed");
      await signsIn(person, "recovery code", "after the session secret changed");
    }

    // 2. The old session secret dropped (what it signed is refused, and the person sent to the start), and a new
    // data key: the old one read while `db rotate-key` seals everything again beside the running server, then dropped.
    await start({ SESSION_SECRET: secrets.second, DATA_ENCRYPTION_KEY: dataKeys.second, DATA_ENCRYPTION_OLD_KEYS: dataKeys.first });
    const stale = new Client(current);
    for (const [name, value] of signedInBefore) stale.cookies.set(name, value);
    const refused = await stale.send(`/interviews/${people[0]!.interviewId}/answers`);
    expect([refused.status, refused.location]).toEqual([302, `/auth/sign-in?returnTo=${encodeURIComponent(`/interviews/${people[0]!.interviewId}/answers`)}`]);
    const rotation = operatorCommand(["db", "rotate-key"], { databaseUrl, dataKey: dataKeys.second }, { DATA_ENCRYPTION_OLD_KEYS: dataKeys.first, DATA_DIR: dataDir });
    console.log(rotation.output);
    expect(rotation.status, rotation.output).toBe(0);
    expect(rotation.output).toMatch(/sealed again under key [0-9a-f]{8}: 2 interview\(s\), 2 file name\(s\), 2 file\(s\), 2 two-factor secret\(s\), 0 two-factor set-up\(s\) in progress, \d+ set\(s\) of recovery codes waiting to be saved, 0 AI transcript\(s\), 2 application key\(s\)/);
    await start({ SESSION_SECRET: secrets.second, DATA_ENCRYPTION_KEY: dataKeys.second });
    forgetUsedCodes();
    for (const person of people) {
      await signsIn(person, "authenticator", "after the data key changed");
      await signsIn(person, "recovery code", "after the data key changed");
    }
    // Nothing is left under the old key: a second rotation has nothing to do.
    const again = operatorCommand(["db", "rotate-key"], { databaseUrl, dataKey: dataKeys.second }, { DATA_DIR: dataDir });
    expect(again.output).toContain("0 interview(s), 0 file name(s), 0 file(s), 0 two-factor secret(s)");
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
