import type { Kysely } from "kysely";

export async function up(db: Kysely<any>): Promise<void> {
  // The certificate that seals signed documents when the organisation configures none (issue 30,
  // docs/decisions/0054-the-seal-and-the-certificate.md): made by the first instance to start, one row per
  // certificate ("self-signed"). The certificate is public (PEM); its private key is sealed at rest
  // ("enc1:…", bound to signing_certificates.private_key:<id>) and sealed again by `cli db rotate-key`.
  await db.schema
    .createTable("signing_certificates")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("certificate", "text", (col) => col.notNull())
    .addColumn("private_key", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("signing_certificates").execute();
}
