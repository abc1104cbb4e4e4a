import { data } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { VersionState } from "~/administration/guide-version-state";
import { AdminTime, AdminTimeZoneName } from "~/ui/admin-lists";
import { discardUpload, guideFromParams } from "~/administration/guides.server";
import { DiffTable } from "~/content/version-views";
import { checkVersion, publishCheck, publishVersion, versionHealth } from "~/guide-checks/checks.server";
import { explorationSummary, type HealthReport } from "~/guide-checks/health-report";
import { findGuideVersion, type GuideWarningKind } from "~/guides/guides.server";
import { notFound } from "~/http.server";
import { ErrorSummary } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.guides.$guideId.versions.$version";

/** The report's groups, in the order an author would fix them. */
const warningGroups: { kind: GuideWarningKind; title: string }[] = [
  { kind: "script", title: "Script errors" },
  { kind: "function", title: "Unknown functions" },
  { kind: "pick-list", title: "Pick lists" },
  { kind: "template", title: "Templates" },
  { kind: "media", title: "Media too large" },
  { kind: "guide", title: "Other problems in the guide" },
];

export async function loader({ request, params }: Route.LoaderArgs) {
  const { guideId, version } = guideFromParams(request, params);
  const pin = { guideId, version: version! };
  const found = await findGuideVersion(pin);
  if (!found) notFound(request);
  // Every scenario runs on the version before it can be published (runs are kept: a version never changes).
  const [health, scenarios] = await Promise.all([versionHealth(pin), found.version.discardedAt ? null : publishCheck(pin)]);
  return { ...found, health, scenarios };
}

/** The confirmation a publish with failing scenarios needs. */
const CONFIRM_ID = "confirm-failing";
const confirmMessage = (failing: string[]) =>
  `${failing.length === 1 ? "A test scenario fails" : `${failing.length} test scenarios fail`} (${failing.join(", ")}): tick the box to publish anyway.`;

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const { guideId, version } = guideFromParams(request, params);
  const pin = { guideId, version: version! };
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "publish") {
    const published = await publishVersion(actor, pin, form.get("confirmFailing") === "yes");
    if (published.ok) {
      return redirectWithToast(`/admin/guides/${guideId}`, { type: "success", message: `Version ${pin.version} is published: new interviews run it.` });
    }
    if (published.reason === "failing") return data({ error: null, confirm: confirmMessage(published.failing) }, { status: 400 });
  } else if (intent === "check") {
    if (await checkVersion(pin)) {
      return redirectWithToast(`/admin/guides/${guideId}/versions/${pin.version}#health`, { type: "success", message: "The health check ran again." });
    }
  } else if (intent === "discard") {
    if (await discardUpload(actor, pin)) {
      return redirectWithToast("/admin/guides", { type: "success", message: `Version ${pin.version} of ${guideId} is discarded.` });
    }
  }
  if (!(await findGuideVersion(pin))) notFound(request);
  return data({ error: "This version is not waiting to be published any more: nothing was changed.", confirm: null }, { status: 409 });
}

export default function GuideVersionPage({ loaderData, actionData }: Route.ComponentProps) {
  const { guide, version, health, scenarios } = loaderData;
  const { report } = version;
  const confirm = actionData?.confirm ?? null;
  const errors = confirm ? [{ fieldId: CONFIRM_ID, label: "Publish although scenarios fail", message: confirm }] : [];
  const pending = !version.publishedAt && !version.discardedAt;
  const base = `/admin/guides/${guide.id}/versions/${version.version}`;
  return (
    <AdminPage
      title={`${version.title}, version ${version.version}`}
      trail={[
        { label: "Guides", href: "/admin/guides" },
        { label: guide.title, href: `/admin/guides/${guide.id}` },
      ]}
      errors={Boolean(actionData?.error) || Boolean(confirm)}
    >
      {actionData?.error || confirm ? <ErrorSummary errors={errors} formErrors={actionData?.error ? [actionData.error] : []} /> : null}
      <dl className="summary-list">
        <dt>Guide</dt>
        <dd>
          <code className="guide-id">{guide.id}</code>
        </dd>
        <dt>State</dt>
        <dd>
          <VersionState version={version} />
        </dd>
        <dt>Uploaded by</dt>
        <dd>{version.uploadedByEmail}</dd>
        <dt>
          Uploaded (<AdminTimeZoneName />)
        </dt>
        <dd>
          <AdminTime at={version.uploadedAt} />
        </dd>
      </dl>

      <h2>Import report</h2>
      <dl className="summary-list">
        <dt>Pages</dt>
        <dd>{report.pages}</dd>
        <dt>Variables</dt>
        <dd>{report.variables}</dd>
        <dt>Templates</dt>
        <dd>{report.templates.length ? report.templates.join(", ") : "None"}</dd>
        <dt>Other files</dt>
        <dd>{report.files}</dd>
      </dl>
      {report.warnings.length ? (
        <>
          <h3>
            {report.warnings.length} {report.warnings.length === 1 ? "warning" : "warnings"}
          </h3>
          {warningGroups.map(({ kind, title }) => {
            const warnings = report.warnings.filter((w) => w.kind === kind);
            return warnings.length ? (
              <section key={kind} aria-labelledby={`warnings-${kind}`}>
                <h4 id={`warnings-${kind}`}>{title}</h4>
                <ul className="report-warnings">
                  {warnings.map((warning, i) => (
                    <li key={i}>{warning.message}</li>
                  ))}
                </ul>
              </section>
            ) : null;
          })}
        </>
      ) : (
        <p>No warnings.</p>
      )}

      <HealthSection guideId={guide.id} version={version.version} health={health} canCheck={!version.discardedAt} />
      {scenarios ? <ScenariosSection guideId={guide.id} version={version.version} check={scenarios} /> : null}

      {version.discardedAt ? null : (
        <p className="button-row">
          <a className="button button--secondary" href={`/preview/${guide.id}?version=${version.version}`}>
            Preview version {version.version}
          </a>
          <a className="button button--secondary" href={`${base}/download`} download>
            Download version {version.version} as a zip
          </a>
        </p>
      )}
      {pending ? (
        <>
          <h2>Publish</h2>
          <p>
            Publishing makes version {version.version} the one new interviews run. Interviews already started keep the version they started on.
          </p>
          <div className="button-row">
            <form method="post">
              <input type="hidden" name="intent" value="publish" />
              {scenarios?.failing.length ? (
                <div className={`field field--checkbox${confirm ? " field--invalid" : ""}`}>
                  <p id={`${CONFIRM_ID}-hint`} className="field__hint">
                    {scenarios.failing.length === 1 ? "One test scenario fails" : `${scenarios.failing.length} test scenarios fail`}: {scenarios.failing.join(", ")}. People
                    starting the interview would meet what they test. Publishing anyway is recorded in the audit.
                  </p>
                  <div className="field__checkbox-row">
                    <input
                      type="checkbox"
                      id={CONFIRM_ID}
                      name="confirmFailing"
                      value="yes"
                      className="field__checkbox"
                      aria-invalid={confirm ? true : undefined}
                      aria-describedby={confirm ? `${CONFIRM_ID}-hint ${CONFIRM_ID}-error` : `${CONFIRM_ID}-hint`}
                    />
                    <label className="field__label" htmlFor={CONFIRM_ID}>
                      Publish although {scenarios.failing.length === 1 ? "a scenario fails" : "scenarios fail"}
                    </label>
                  </div>
                  <p className="field__error" id={`${CONFIRM_ID}-error`}>
                    {confirm ?? ""}
                  </p>
                </div>
              ) : null}
              <button type="submit" className="button">
                Publish
              </button>
            </form>
            <form method="post">
              <input type="hidden" name="intent" value="discard" />
              <button type="submit" className="button button--secondary">
                Discard
              </button>
            </form>
          </div>
        </>
      ) : null}
    </AdminPage>
  );
}

const findingGroups = [
  { severity: "error", title: (n: number) => `${n} ${n === 1 ? "error" : "errors"}: a person is stopped` },
  { severity: "warning", title: (n: number) => `${n} ${n === 1 ? "warning" : "warnings"}` },
] as const;

/** The health check: how much it explored, and each finding with a link that opens the preview at its page. */
function HealthSection({ guideId, version, health, canCheck }: { guideId: string; version: number; health: HealthReport | null; canCheck: boolean }) {
  const preview = (page: string) => `/preview/${guideId}?${new URLSearchParams({ version: String(version), page }).toString()}`;
  return (
    <section aria-labelledby="health">
      <h2 id="health">Health check</h2>
      {health ? (
        <>
          <p>
            Every path from the start, with each page's choices and a few answers for each question: {explorationSummary(health)}
            {health.outcomes.length ? ` Endings reached: ${health.outcomes.join(", ")}.` : " No ending was reached."}
          </p>
          {health.findings.length === 0 ? <p>No problems found.</p> : null}
          {findingGroups.map(({ severity, title }) => {
            const findings = health.findings.filter((f) => f.severity === severity);
            return findings.length ? (
              <section key={severity} aria-labelledby={`health-${severity}`}>
                <h3 id={`health-${severity}`}>{title(findings.length)}</h3>
                <ul className="report-warnings">
                  {findings.map((finding, i) => (
                    <li key={i}>
                      <strong>
                        {finding.page === null ? "Templates" : `Page “${finding.page}”`}
                        {finding.where ? `, ${finding.where}` : ""}:
                      </strong>{" "}
                      {finding.message}
                      {finding.page !== null ? (
                        <>
                          {" "}
                          <a href={preview(finding.page)}>Open “{finding.page}” in the preview</a>
                        </>
                      ) : null}
                    </li>
                  ))}
                </ul>
              </section>
            ) : null;
          })}
        </>
      ) : (
        <p>This version has not been checked yet.</p>
      )}
      {canCheck ? (
        <form method="post">
          <input type="hidden" name="intent" value="check" />
          <button type="submit" className="button button--secondary">
            {health ? "Run the health check again" : "Run the health check"}
          </button>
        </form>
      ) : null}
    </section>
  );
}

const changeWords = {
  changed: (from: number) => `changed from version ${from}`,
  same: (from: number) => `no change from version ${from}`,
  new: (from: number) => `not made by version ${from}`,
  gone: (from: number) => `made by version ${from}, not by this version`,
} as const;

/** Each test scenario on this version: whether it passes, and its documents beside the last published version's. */
function ScenariosSection({ guideId, version, check }: { guideId: string; version: number; check: NonNullable<Route.ComponentProps["loaderData"]["scenarios"]> }) {
  const failing = check.failing.length;
  return (
    <section aria-labelledby="scenarios">
      <h2 id="scenarios">Test scenarios</h2>
      {check.scenarios.length === 0 ? (
        <p>
          This guide has no test scenarios yet. <a href={`/admin/guides/${guideId}#scenarios`}>Add them on the guide's page</a>: every new version runs
          them before it is published.
        </p>
      ) : (
        <>
          <p>
            {failing === 0
              ? `All ${check.scenarios.length} scenarios pass.`
              : `${failing} of ${check.scenarios.length} ${check.scenarios.length === 1 ? "scenario fails" : "scenarios fail"}.`}{" "}
            {check.previousVersion === null
              ? "No version was published before this one, so there is nothing to compare the documents with."
              : `Documents are compared with version ${check.previousVersion}, the one published before.`}
          </p>
          {check.scenarios.map(({ scenario, result, documents }) => (
            <section key={scenario.id} aria-labelledby={`scenario-${scenario.id}`}>
              <h3 id={`scenario-${scenario.id}`}>
                {scenario.name}: {result.passed ? "passes" : "fails"}
              </h3>
              <p>
                {result.outcome
                  ? `The answers went through ${result.pages} pages and ended with ${result.outcome}.`
                  : `The answers stopped at the page “${result.stoppedAt ?? "the start"}”: ${result.stoppedBecause ?? ""}`}
              </p>
              <ul className="report-warnings">
                {result.checks.map((c, i) => (
                  <li key={i}>
                    <strong>{c.passed ? "Passes" : "Fails"}:</strong> {c.expectation}
                    {c.found ? ` (${c.found})` : ""}
                  </li>
                ))}
              </ul>
              {result.documentsError ? <p>The documents could not be made: {result.documentsError}</p> : null}
              {result.documents.length === 0 && !result.documentsError ? <p>No document is made for these answers.</p> : null}
              {check.previousVersion !== null
                ? documents.map((doc, i) =>
                    doc.change === "same" ? (
                      <p key={i}>
                        Document “{doc.title}”: {changeWords.same(check.previousVersion!)}.
                      </p>
                    ) : (
                      <DiffTable key={i} lines={doc.lines} caption={`Document “${doc.title}”: ${changeWords[doc.change](check.previousVersion!)} (version ${version})`} />
                    ),
                  )
                : null}
            </section>
          ))}
        </>
      )}
    </section>
  );
}
