import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { AccountPage } from "~/account/account-page";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { codesToShow, forgetCodesToShow } from "~/auth/recovery-codes.server";
import { newRecoveryCodesSchema } from "~/auth/schemas";
import { requestedReturn } from "~/auth/return-to";
import { requireUser, sessionContext } from "~/auth/session.server";
import { makeNewRecoveryCodes, recoveryCodesLeft } from "~/auth/two-factor-recovery.server";
import { useT } from "~/i18n/react";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, resultShowsErrors, summaryErrors, TextField } from "~/ui/form";
import type { Route } from "./+types/account.recovery-codes";

export const handle = { scripts: ["/scripts/print-page.js"] };

// The page may hold the codes in clear: no copy of it is kept by the browser or anything between.
export const headers: Route.HeadersFunction = () => ({ "Cache-Control": "no-store" });

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const session = context.get(sessionContext)!;
  const fresh = await codesToShow(session);
  if (fresh) return { view: "show" as const, codes: fresh.codes, email: user.email };
  const usedOneToSignIn = new URL(request.url).searchParams.get("used") === "1";
  return { view: "manage" as const, left: await recoveryCodesLeft(user.id), usedOneToSignIn, returnTo: requestedReturn(request) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const session = context.get(sessionContext)!;
  const form = await request.formData();
  if (form.get("intent") === "saved") {
    const fresh = await codesToShow(session);
    await forgetCodesToShow(session);
    // After a sign-up or set-up, on to the page the person came from (app/auth/return-to.ts).
    return redirect(requestedReturn(request) ?? fresh?.then ?? "/account/dashboard");
  }
  const submission = parseWithZod(form, { schema: newRecoveryCodesSchema });
  if (submission.status !== "success") return invalid(submission);
  return limited(submission, async () => {
    const refused = await makeNewRecoveryCodes(user.id, submission.value.password, session, context.get(clientAddressContext));
    if (refused) return refuse(submission, refused);
    return redirect("/account/recovery-codes");
  });
}

export default function RecoveryCodes({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <AccountPage title={t("account.recoveryCodes.title")} errors={resultShowsErrors(actionData?.result)}>
      {loaderData.view === "show" ? (
        <FreshCodes codes={loaderData.codes} email={loaderData.email} />
      ) : (
        <Manage left={loaderData.left} usedOneToSignIn={loaderData.usedOneToSignIn} returnTo={loaderData.returnTo} result={actionData?.result} />
      )}
    </AccountPage>
  );
}

function FreshCodes({ codes, email }: { codes: string[]; email: string }) {
  const { t } = useT();
  const file = [t("account.recoveryCodes.fileTitle", { site: t("site.name"), email }), t("account.recoveryCodes.fileHint"), "", ...codes, ""].join("\n");
  return (
    <>
      <p>{t("account.recoveryCodes.freshIntro")}</p>
      <ol className="recovery-codes" aria-label={t("account.recoveryCodes.listLabel")} translate="no">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="recovery-codes__actions">
        <a
          className="button button--secondary"
          href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`}
          download="legal-self-help-recovery-codes.txt"
        >
          {t("account.recoveryCodes.download")}
        </a>
        {/* Shown by the small print script; without script the browser's own Print prints the codes alone. */}
        <button type="button" className="button button--secondary" data-print="" hidden>
          {t("account.recoveryCodes.print")}
        </button>
        <form method="post">
          <button type="submit" name="intent" value="saved" className="button">
            {t("account.recoveryCodes.saved")}
          </button>
        </form>
      </div>
    </>
  );
}

function Manage({
  left,
  usedOneToSignIn,
  returnTo,
  result,
}: {
  left: number;
  usedOneToSignIn: boolean;
  returnTo: string | null;
  result: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useForm({
    id: "new-recovery-codes",
    lastResult: result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: newRecoveryCodesSchema }),
  });
  const { t } = useT();
  const leftText = t("account.recoveryCodes.left", { count: left });
  return (
    <>
      {usedOneToSignIn ? (
        <div className="notice notice--warning" role="status">
          <p>{t("account.recoveryCodes.usedOne", { count: left })}</p>
          {returnTo ? (
            <p>
              <a href={returnTo}>{t("account.recoveryCodes.continue")}</a>
            </p>
          ) : null}
        </div>
      ) : (
        <p>{leftText}</p>
      )}
      <ErrorSummary errors={summaryErrors([fields.password, t("account.recoveryCodes.password")])} formErrors={form.errors} />
      <h2>{t("account.recoveryCodes.newTitle")}</h2>
      <p>{t("account.recoveryCodes.newIntro")}</p>
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.password} label={t("account.recoveryCodes.password")} type="password" autoComplete="current-password" />
        <button type="submit" name="intent" value="new" className="button">
          {t("account.recoveryCodes.newSubmit")}
        </button>
      </Form>
      <h2>{t("account.recoveryCodes.newPhoneTitle")}</h2>
      <p>
        <a className="button button--secondary" href="/account/authenticator">
          {t("account.recoveryCodes.newAuthenticator")}
        </a>
      </p>
    </>
  );
}
