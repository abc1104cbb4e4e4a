import type { Kysely } from "kysely";

/**
 * Signing (issue 30, docs/decisions/0055-the-signing-flow.md): a completed interview whose documents need
 * signatures has one signing request, and a signer for each signature place its guide marks (the person's own
 * first, then each other signer the person named). Names, emails, what was typed or drawn, the addresses signed
 * from, a reason for declining and the final sealed PDF are sealed at rest, each bound to its row. Emailed links and one-time codes are kept
 * only as hashes. Deleting the interview or the account deletes its requests and signers with it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("signing_requests")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("interview_id", "text", (col) => col.notNull().references("interviews.id").onDelete("cascade"))
    .addColumn("user_id", "text", (col) => col.notNull().references("users.id").onDelete("cascade"))
    // "open" (waiting for signatures), "complete" (everyone signed; the sealed PDF is kept), "replaced" (the
    // person changed their answers before everyone signed: its links no longer work).
    .addColumn("status", "text", (col) => col.notNull())
    // The language the person's emails are written in.
    .addColumn("language", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .addColumn("completed_at", "text")
    // The final PDF (signed, record page, sealed with the organisation's certificate), base64, sealed at rest.
    .addColumn("signed_pdf", "text")
    // SHA-256 (hex) of the final PDF as downloaded.
    .addColumn("signed_sha256", "text")
    .execute();
  await db.schema.createIndex("signing_requests_interview").on("signing_requests").column("interview_id").execute();
  await db.schema
    .createTable("signers")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("request_id", "text", (col) => col.notNull().references("signing_requests.id").onDelete("cascade"))
    // The signature place's order in the guide (0: the person's own).
    .addColumn("position", "integer", (col) => col.notNull())
    // The guide's name for the place ("User", "Other parent"): the guide's words, not the signer's.
    .addColumn("role", "text", (col) => col.notNull())
    // "waiting", "signed" or "declined".
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("email", "text", (col) => col.notNull())
    // Others only: the emailed link's hash, until when it works, and when it was spent.
    .addColumn("link_hash", "text", (col) => col.unique())
    .addColumn("link_expires_at", "text")
    // The one-time code sent to the signer's email: its hash, until when it works, and the wrong tries.
    .addColumn("code_hash", "text")
    .addColumn("code_expires_at", "text")
    .addColumn("code_attempts", "integer", (col) => col.notNull().defaultTo(0))
    // After the code: the hash of the browser's key (a cookie) and until when it lets the signer read and sign.
    .addColumn("visit_hash", "text")
    .addColumn("visit_expires_at", "text")
    // "typed" or "drawn".
    .addColumn("method", "text")
    .addColumn("typed_name", "text")
    // A drawn signature: a PNG as a data: URL, sealed.
    .addColumn("drawing", "text")
    .addColumn("signed_at", "text")
    .addColumn("declined_at", "text")
    .addColumn("decline_reason", "text")
    // The client address each signature was given from (for the record page and the audit), sealed.
    .addColumn("address", "text")
    .execute();
  await db.schema.createIndex("signers_request").on("signers").columns(["request_id", "position"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("signers").execute();
  await db.schema.dropTable("signing_requests").execute();
}
