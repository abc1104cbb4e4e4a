// The house rules for imports (docs/decisions/0013-cli-and-container.md), checked by `npm run check:imports`,
// which `npm test` runs: no cycles, and imports run one way: the entries (routes, server) → capabilities →
// the engine and the data. Capabilities are ranked; one may import only those ranked below it, so no two
// capabilities can ever depend on each other, directly or round a longer circle.

/** From the bottom up. A capability is a folder of app/ that owns one part of the product. */
const capabilities = [
  "security",
  // Above security: the encryption at rest of file bytes (app/security/) is applied by the storage factory.
  "storage",
  "mail",
  // The append-only record of administrative actions: written in the transaction of each change, whatever changes.
  "audit",
  // Signed webhooks (docs/decisions/0057-webhooks.md): events are queued in the transaction of the change that causes
  // them, by help (shares), the viewer (completion) and signing; the queue reads nothing of them but their rows.
  "webhooks",
  "content",
  "guides",
  // Below interviews: a save records the page it is at as usage's page token; usage reads guides' page names.
  "usage",
  "interviews",
  "auth",
  // Above auth: administrators are accounts with a role (app/administration/roles.server.ts).
  "administration",
  "support",
  "documents",
  // Above documents: signed documents are assembled by documents' own code, then given their record page and
  // sealed (docs/decisions/0053, 0054); the signing flow's requests and signers, mailed, audited, counted in usage
  // (0055). Below account, which may one day list them.
  "signing",
  // Above documents and administration: a guide version's health check and test scenarios (the documents they
  // make, compared with the last version's; publishing with a failing scenario, audited).
  "guide-checks",
  // Above documents: the account area's "Download my data" puts the documents of Completed interviews in the zip.
  "account",
  // Above interviews: a source file is read as an upload is.
  "sources",
  "ai",
  "viewer",
  // Help from a person: helpers read what a person shared through the viewer's summary and the documents'
  // assembly, and prepare interviews the viewer runs (docs/decisions/0042-helpers.md).
  "help",
  // Answers reused across interviews and answer files in (issue 29): read from the person's other interviews and
  // profile, checked against the guide the viewer opens, and a new interview started with them.
  "reuse",
  // Forms posted after a session expired, kept until the person signs in again and applied to the interview (the
  // viewer's keeping of typed answers) or shown back in the AI pages (docs/decisions/0051).
  "expiry",
  // The organisation's API (issue 31, docs/decisions/0056-the-api.md): tokens, and endpoints that read and prepare
  // through help, interviews, documents and reuse. Nothing below imports it.
  "api",
];
/**
 * What every capability may use: the engine, the data, configuration, the words in every language (app/i18n/), the log and metrics (app/observability/,
 * which the data's own connection reports to) and shared presentation.
 */
const foundation = "^(db/|app/(a2j|ui|styles|observability|i18n)/|app/(config|db|http)\\.server\\.ts$|app/request-context\\.ts$)";
/** The entries that put the capabilities together: nothing below them imports them. */
const entries = "^(server/|app/routes/|app/(root|routes|entry\\.server)\\.tsx?$)";
const notTests = "\\.(test|bench)\\.tsx?$";

const upward = capabilities.map((name, rank) => ({
  name: `${name}-imports-upward`,
  comment: `app/${name}/ may import only capabilities ranked below it (${capabilities.slice(0, rank).join(", ") || "none"}).`,
  severity: "error",
  from: { path: `^app/${name}/`, pathNot: notTests },
  to: { path: `^app/(${capabilities.slice(rank + 1).join("|") || "-"})/` },
}));

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No module may reach itself through its imports.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "engine-is-pure",
      comment: "The A2J engine (app/a2j/) is a pure library: it imports nothing but itself (its tests may read fixtures).",
      severity: "error",
      from: { path: "^app/a2j/", pathNot: notTests },
      to: { pathNot: "^app/a2j/" },
    },
    {
      name: "data-imports-no-app",
      comment: "db/ (schema, migrations, seed loader) knows nothing of the application above it.",
      severity: "error",
      from: { path: "^db/", pathNot: notTests },
      to: { path: "^(app|server)/" },
    },
    {
      name: "foundation-imports-no-capability",
      comment: "The engine, the data, configuration and shared presentation import no capability and no entry.",
      severity: "error",
      from: { path: foundation, pathNot: notTests },
      to: { path: `^app/(${capabilities.join("|")})/|${entries}` },
    },
    {
      name: "nothing-imports-an-entry",
      comment: "Routes and the server are the top: a capability or the foundation never imports them.",
      severity: "error",
      from: { path: "^(app|db)/", pathNot: `${entries}|${notTests}` },
      to: { path: entries },
    },
    {
      name: "viewer-uses-the-pure-rephrase-module-only",
      comment: "The viewer may know the AI rephrase screen's address and rule (app/ai/rephrase.ts), nothing more of app/ai/.",
      severity: "error",
      from: { path: "^app/viewer/" },
      to: { path: "^app/ai/", pathNot: "^app/ai/rephrase\\.ts$" },
    },
    {
      name: "no-test-code-at-run-time",
      comment: "Code that runs in production never imports test support.",
      severity: "error",
      from: { path: "^(app|server|db)/", pathNot: notTests },
      to: { path: "^tests/|\\.test\\.tsx?$" },
    },
    {
      name: "no-dev-packages-at-run-time",
      comment: "The container has no development packages: code that runs there may not import one (types excepted).",
      severity: "error",
      // app/routes.ts is read by the build only.
      from: { path: "^(app|server|db)/", pathNot: `${notTests}|^app/routes\\.ts$` },
      to: { dependencyTypes: ["npm-dev"], dependencyTypesNot: ["type-only"] },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(build|node_modules|\\.react-router)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default", "types"] },
  },
};
