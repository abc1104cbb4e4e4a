import { sql } from "kysely";
import { database } from "~/db.server";
import { logger } from "~/observability/log.server";

const log = logger("healthz");

export async function loader() {
  try {
    await sql`select 1`.execute(database());
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    log.error("the database check failed", { err: error });
    return Response.json({ status: "error", database: "unreachable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
