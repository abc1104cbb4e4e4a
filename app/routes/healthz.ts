import { sql } from "kysely";
import { database } from "~/db.server";

export async function loader() {
  try {
    await sql`select 1`.execute(database());
    return Response.json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    console.error("[healthz] database check failed:", error);
    return Response.json({ status: "error", database: "unreachable" }, { status: 503, headers: { "Cache-Control": "no-store" } });
  }
}
