import type { Kysely } from "kysely";

/**
 * The health check of each guide version and the test scenarios administrators attach to a guide
 * (docs/decisions/0039-guide-health-and-scenarios.md). A scenario belongs to the guide (every new version runs
 * it); a run is one scenario on one version, kept so the publish page can compare a version with the last.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // The health check's report (JSON, app/guide-checks/health.server.ts); null until the version is checked.
  await db.schema.alterTable("guide_versions").addColumn("health", "text").execute();

  await db.schema
    .createTable("guide_scenarios")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("guide_id", "text", (col) => col.notNull().references("guides.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    // The answer file as uploaded (ANX or A2J JSON): test answers an administrator chose, not a person's.
    .addColumn("answers_format", "text", (col) => col.notNull())
    .addColumn("answers", "text", (col) => col.notNull())
    // What must hold, one expectation a line (docs/a2j-formats.md, "Test scenarios").
    .addColumn("expectations", "text", (col) => col.notNull())
    .addColumn("created_by_email", "text", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("guide_scenarios_guide").on("guide_scenarios").columns(["guide_id", "name"]).unique().execute();

  await db.schema
    .createTable("guide_scenario_runs")
    .addColumn("scenario_id", "text", (col) => col.notNull().references("guide_scenarios.id").onDelete("cascade"))
    .addColumn("guide_id", "text", (col) => col.notNull())
    .addColumn("version", "integer", (col) => col.notNull())
    .addColumn("passed", "integer", (col) => col.notNull())
    // What the run found (JSON): each expectation's result, where it ended, and each document's text.
    .addColumn("result", "text", (col) => col.notNull())
    .addColumn("ran_at", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("guide_scenario_runs_pk", ["scenario_id", "version"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("guide_scenario_runs").execute();
  await db.schema.dropTable("guide_scenarios").execute();
  await db.schema.alterTable("guide_versions").dropColumn("health").execute();
}
