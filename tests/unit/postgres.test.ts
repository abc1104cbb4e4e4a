import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import {
  checkPostgres,
  connectAdmin,
  databaseUrl,
  DEFAULT_POSTGRES_URL,
  explainPostgresProblem,
  redactUrl,
  testPostgresUrl,
} from "../support/postgres";

const server = testPostgresUrl();

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe("the test PostgreSQL URL", () => {
  it("defaults to the server's maintenance database, which every server has; TEST_POSTGRES_URL overrides", () => {
    expect(DEFAULT_POSTGRES_URL).toBe("postgres://postgres@127.0.0.1:5432/postgres");
    expect(testPostgresUrl({})).toBe(DEFAULT_POSTGRES_URL);
    expect(testPostgresUrl({ TEST_POSTGRES_URL: "" })).toBe(DEFAULT_POSTGRES_URL);
    expect(testPostgresUrl({ TEST_POSTGRES_URL: "postgres://u:p@db:6543/x" })).toBe("postgres://u:p@db:6543/x");
  });

  it("names another database on the same server, keeping the user, password and options", () => {
    expect(databaseUrl("postgres://u:p@db:6543/postgres?sslmode=disable", "lsh_test_1")).toBe(
      "postgres://u:p@db:6543/lsh_test_1?sslmode=disable",
    );
    expect(databaseUrl("postgres://u@db", "x")).toBe("postgres://u@db/x");
  });

  it("hides the password in messages", () => {
    expect(redactUrl("postgres://u:secret@db:5432/postgres")).toBe("postgres://u:***@db:5432/postgres");
    expect(redactUrl("postgres://u@db:5432/postgres")).toBe("postgres://u@db:5432/postgres");
    expect(redactUrl("not a url")).toBe("(not a valid URL)");
  });
});

describe("what a person is told when the tests cannot use PostgreSQL", () => {
  const url = "postgres://postgres:secret@127.0.0.1:5499/postgres";

  it("no server: what to install and start, and how to let the tests in", () => {
    const message = explainPostgresProblem(url, Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5499"), { code: "ECONNREFUSED" }));
    expect(message).toContain("none answered at postgres://postgres:***@127.0.0.1:5499/postgres (connect ECONNREFUSED 127.0.0.1:5499)");
    expect(message).toContain("apt-get install -y postgresql");
    expect(message).toContain("service postgresql start");
    expect(message).toContain("trust");
    expect(message).toContain("TEST_POSTGRES_URL=postgres://postgres:secret@127.0.0.1:5432/postgres npm test");
    expect(message).not.toContain(":secret@127.0.0.1:5499");
  });

  it("an error without a message (a refused connection to several addresses) still names the server", () => {
    const message = explainPostgresProblem(url, Object.assign(new AggregateError([], ""), { code: "ECONNREFUSED" }));
    expect(message).toContain("none answered at postgres://postgres:***@127.0.0.1:5499/postgres (ECONNREFUSED)");
  });

  it("refused sign-in: trust or a password, not installing", () => {
    for (const error of [
      { code: "28P01", message: 'password authentication failed for user "postgres"' },
      { code: "28000", message: 'role "nobody" does not exist' },
      new Error("SASL: SCRAM-SERVER-FIRST-MESSAGE: client password must be a string"),
    ]) {
      const message = explainPostgresProblem(url, error);
      expect(message).toContain("could not sign in");
      expect(message).toContain("pg_hba.conf");
      expect(message).not.toContain("apt-get");
    }
  });

  it("a user that may not create databases", () => {
    const message = explainPostgresProblem(url, { code: "42501", message: "the role lacks CREATEDB" });
    expect(message).toContain("may not create databases");
    expect(message).toContain("createdb");
  });
});

describe("on the test server", () => {
  it("passes the check", async () => {
    expect(await checkPostgres(server)).toEqual({ ok: true });
  });

  it("connects to the `postgres` database when the URL's database does not exist", async () => {
    const missing = databaseUrl(server, `lsh_missing_${randomBytes(4).toString("hex")}`);
    const client = await connectAdmin(missing);
    try {
      const { rows } = await client.query<{ name: string }>("select current_database() as name");
      expect(rows[0]!.name).toBe("postgres");
    } finally {
      await client.end();
    }
    expect(await checkPostgres(missing)).toEqual({ ok: true });
  });

  it("fails the check, saying what to install and start, where nothing listens", async () => {
    const url = new URL(server);
    url.hostname = "127.0.0.1";
    url.port = String(await closedPort());
    const result = await checkPostgres(url.toString());
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain("apt-get install -y postgresql");
  });

  it("fails the check for a user that may not create databases", async () => {
    const role = `lsh_nocreate_${randomBytes(4).toString("hex")}`;
    const admin = await connectAdmin(server);
    await admin.query(`create role ${role} login`);
    try {
      const url = new URL(server);
      url.username = role;
      url.password = "";
      const result = await checkPostgres(url.toString());
      expect(result.ok).toBe(false);
      // On a server that asks for passwords the role cannot sign in at all: that is refused too.
      expect(!result.ok && result.message).toMatch(/may not create databases|could not sign in/);
    } finally {
      await admin.query(`drop role ${role}`);
      await admin.end();
    }
  });
});
