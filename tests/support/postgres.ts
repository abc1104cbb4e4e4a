import pg from "pg";

/**
 * The PostgreSQL server the data tests use. The database in the URL is only where the tests connect to create and
 * drop a fresh database per suite: by default the server's maintenance database `postgres`, which every server has.
 */
export const DEFAULT_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

export function testPostgresUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.TEST_POSTGRES_URL || DEFAULT_POSTGRES_URL;
}

/** The same server and user, another database. */
export function databaseUrl(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

/** The URL with its password hidden, for messages. */
export function redactUrl(serverUrl: string): string {
  try {
    const url = new URL(serverUrl);
    if (url.password) url.password = "***";
    return url.toString();
  } catch {
    return "(not a valid URL)";
  }
}

const connectionTimeoutMillis = 5_000;

/**
 * Connects to the server to create and drop databases: to the URL's database, or, when that database does not
 * exist (a URL naming a `test` database on a server that has none), to the server's `postgres` database.
 */
export async function connectAdmin(serverUrl: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis });
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => {});
    const named = decodeURIComponent(new URL(serverUrl).pathname.slice(1));
    if ((error as { code?: string }).code !== "3D000" || named === "postgres") throw error;
    const second = new pg.Client({ connectionString: databaseUrl(serverUrl, "postgres"), connectionTimeoutMillis });
    try {
      await second.connect();
      return second;
    } catch {
      await second.end().catch(() => {});
      throw error;
    }
  }
}

const installHelp = [
  "Install and start PostgreSQL (Debian/Ubuntu, as root):",
  "  apt-get install -y postgresql",
  "  service postgresql start",
];

const signInHelp = [
  "The tests connect over TCP as the URL's user, with its password if it has one. Debian's server asks for a",
  "password on 127.0.0.1, so either",
  "  - let local connections in without one: set the method of the `host all all 127.0.0.1/32` line in",
  "    /etc/postgresql/*/main/pg_hba.conf to `trust`, then `service postgresql reload`; or",
  "  - give the user a password (su postgres -c \"psql -c \\\"alter user postgres password 'secret'\\\"\") and run",
  "    TEST_POSTGRES_URL=postgres://postgres:secret@127.0.0.1:5432/postgres npm test",
];

const urlHelp = (serverUrl: string) => [
  "TEST_POSTGRES_URL may name any existing database (`postgres` by default) on a server where its user may create",
  `databases; the tests create and drop one per suite. Now: ${redactUrl(serverUrl)}`,
];

/** What to tell a person whose PostgreSQL server could not be used for the tests, given the connection error. */
export function explainPostgresProblem(serverUrl: string, error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: string; message?: string };
  const where = redactUrl(serverUrl);
  const detail = message ? ` (${message})` : code ? ` (${code})` : "";
  let lines: string[];
  if (code === "28P01" || code === "28000" || /password|SASL/i.test(message ?? "")) {
    lines = [`The data-layer tests could not sign in to PostgreSQL at ${where}${detail}.`, ...signInHelp];
  } else if (code === "3D000") {
    lines = [`PostgreSQL at ${where} has neither the database in the URL nor a \`postgres\` database${detail}.`];
  } else if (code === "42501") {
    lines = [
      `The user in ${where} may not create databases${detail}, and the data-layer tests create one per suite.`,
      "Allow it (as root: su postgres -c \"psql -c 'alter user <name> createdb'\") or use another user.",
    ];
  } else {
    lines = [`The data-layer tests need a PostgreSQL server, and none answered at ${where}${detail}.`, ...installHelp, ...signInHelp];
  }
  return [...lines, ...urlHelp(serverUrl)].join("\n");
}

/** Checks that the tests can use the server: it answers, lets the user in and lets the user create databases. */
export async function checkPostgres(serverUrl: string): Promise<{ ok: true } | { ok: false; message: string }> {
  let client: pg.Client;
  try {
    new URL(serverUrl);
  } catch {
    return { ok: false, message: "TEST_POSTGRES_URL is not a URL: set it like postgres://user:password@host:5432/postgres" };
  }
  try {
    client = await connectAdmin(serverUrl);
  } catch (error) {
    return { ok: false, message: explainPostgresProblem(serverUrl, error) };
  }
  try {
    const { rows } = await client.query<{ allowed: boolean }>(
      "select rolcreatedb or rolsuper as allowed from pg_roles where rolname = current_user",
    );
    if (!rows[0]?.allowed) {
      return {
        ok: false,
        message: explainPostgresProblem(serverUrl, { code: "42501", message: "the role lacks CREATEDB" }),
      };
    }
    return { ok: true };
  } finally {
    await client.end().catch(() => {});
  }
}
