import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form, redirect } from "react-router";
import { accountExists, emailKey, signUpThroughInvitation } from "~/auth/accounts.server";
import { limited, refuse } from "~/auth/form-replies.server";
import { DEFAULT_PHONE_COUNTRY } from "~/auth/phone-countries";
import { PhoneFields } from "~/auth/phone-fields";
import { currentUser } from "~/auth/session.server";
import { checkInvitation, claimInvitation, type InvitationCheck, invitationCodeFrom } from "~/help/prepared.server";
import { invitationSignUpSchema } from "~/help/schemas";
import { AgreeToTerms } from "~/auth/agree-to-terms";
import { RichText, useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
import { clientAddressContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/invitation";

/** An address shown to someone who holds a link but may not be its addressee: "a•••@example.org". */
function masked(email: string): string {
  const [name = "", domain = ""] = email.split("@");
  return `${name.slice(0, 1)}•••@${domain}`;
}

interface InvitedPerson {
  code: string;
  helperName: string;
  email: string;
  firstName: string;
  lastName: string;
}

type Invitation =
  | { state: "unknown" | "used" }
  | { state: "expired"; helperName: string }
  | ({ state: "sign-up" | "sign-in" } & InvitedPerson)
  | { state: "add"; code: string; helperName: string }
  | { state: "other-account"; masked: string };

/** What the page shows for a code: why it does not work, or what the person can do with it, signed in or not. */
async function invitationView(check: InvitationCheck, code: string, user: { email: string } | null): Promise<Invitation> {
  if (check.status === "unknown" || check.status === "used") return { state: check.status };
  if (check.status === "expired") return { state: "expired", helperName: check.helperName };
  if (user) {
    if (emailKey(user.email) !== emailKey(check.person.email)) return { state: "other-account", masked: masked(check.person.email) };
    return { state: "add", code, helperName: check.helperName };
  }
  const person = { code, helperName: check.helperName, email: check.person.email, firstName: check.person.firstName, lastName: check.person.lastName };
  return { state: (await accountExists(check.person.email)) ? "sign-in" : "sign-up", ...person };
}

const statusOf = (view: Invitation) => (view.state === "unknown" ? 404 : view.state === "used" || view.state === "expired" ? 410 : 200);

export async function loader({ request, context }: Route.LoaderArgs) {
  const code = invitationCodeFrom(new URL(request.url));
  const view = await invitationView(await checkInvitation(code), code, currentUser(context));
  return data({ view }, { status: statusOf(view) });
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const code = String(form.get("code") ?? "").slice(0, 100);
  const user = currentUser(context);
  if (user) {
    const claimed = await claimInvitation(code, user);
    if (claimed.ok) return redirectWithToast(`/issues/${claimed.issueId}/interviews/${claimed.interviewId}`, { type: "success", message: messageRef("auth.invitation.added") });
    const view = await invitationView(await checkInvitation(code), code, user);
    return data({ view, result: null }, { status: statusOf(view) === 200 ? 409 : statusOf(view) });
  }
  const check = await checkInvitation(code);
  const view = await invitationView(check, code, null);
  const submission = parseWithZod(form, { schema: invitationSignUpSchema });
  if (view.state !== "sign-up" || check.status !== "valid") return data({ view, result: null }, { status: statusOf(view) === 200 ? 409 : statusOf(view) });
  if (submission.status !== "success") return data({ view, result: submission.reply() }, { status: 400 });
  return limited(submission, async () => {
    const { code: _code, ...input } = submission.value;
    const made = await signUpThroughInvitation({ ...input, email: check.person.email }, context.get(clientAddressContext));
    if ("field" in made) return refuse(submission, made);
    // The invitation is spent with the account made for it; the password is chosen next, as after a verification link.
    await claimInvitation(code, { id: made.userId, email: check.person.email });
    return redirect(`/auth/sign-up/password?code=${encodeURIComponent(made.code)}`);
  });
}

export default function InvitationPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useT();
  const view = actionData && "view" in actionData ? actionData.view : loaderData.view;
  const title = t(
    view.state === "unknown"
      ? "auth.invitation.unknownTitle"
      : view.state === "used"
        ? "auth.invitation.usedTitle"
        : view.state === "expired"
          ? "auth.invitation.expiredTitle"
          : "auth.invitation.title",
  );
  const result = actionData && "result" in actionData ? actionData.result : undefined;
  return (
    <div className="page page--narrow">
      {view.state === "sign-up" ? null : <PageTitle title={title} />}
      {view.state === "sign-up" ? (
        <SignUpThroughInvitation view={view} result={result} />
      ) : (
        <>
          <h1>{title}</h1>
          {view.state === "unknown" ? <p>{t("auth.invitation.unknown")}</p> : null}
          {view.state === "used" ? (
            <p>
              <RichText id="auth.invitation.used" tags={{ link: (words) => <a href="/account/interview">{words}</a> }} />
            </p>
          ) : null}
          {view.state === "expired" ? <p>{t("auth.invitation.expired", { helper: view.helperName })}</p> : null}
          {view.state === "other-account" ? <p>{t("auth.invitation.otherAccount", { masked: view.masked })}</p> : null}
          {view.state === "sign-in" ? (
            <>
              <p>{t("auth.invitation.intro", { helper: view.helperName })}</p>
              <p>{t("auth.invitation.haveAccount", { email: view.email })}</p>
              <p>
                <a className="button" href="/auth/sign-in">
                  {t("auth.invitation.signIn")}
                </a>
              </p>
            </>
          ) : null}
          {view.state === "add" ? (
            <>
              <p>{t("auth.invitation.intro", { helper: view.helperName })}</p>
              <form method="post" className="form">
                <input type="hidden" name="code" value={view.code} />
                <button type="submit" className="button">
                  {t("auth.invitation.add")}
                </button>
              </form>
            </>
          ) : null}
        </>
      )}
    </div>
  );
}

function SignUpThroughInvitation({ view, result }: { view: InvitedPerson; result: SubmissionResult<string[]> | null | undefined }) {
  const [form, fields] = useForm({
    id: "invitation-sign-up",
    lastResult: result,
    defaultValue: { firstName: view.firstName, lastName: view.lastName, phoneCountry: DEFAULT_PHONE_COUNTRY },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: invitationSignUpSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors(
    [fields.firstName, t("auth.field.firstName")],
    [fields.lastName, t("auth.field.lastName")],
    [fields.phoneCountry, t("auth.phone.country")],
    [fields.phoneNumber, t("auth.phone.number")],
  );
  return (
    <>
      <PageTitle title={t("auth.invitation.title")} errors={showsErrors(errors, form.errors)} />
      <h1>{t("auth.invitation.title")}</h1>
      <p>{t("auth.invitation.intro", { helper: view.helperName })}</p>
      <h2 id="create-title">{t("auth.invitation.createTitle")}</h2>
      <p>
        <RichText id="auth.invitation.yourEmail" values={{ email: view.email }} tags={{ strong: (words) => <strong translate="no">{words}</strong> }} />
      </p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form" aria-labelledby="create-title">
        <input type="hidden" name="code" value={view.code} />
        <TextField field={fields.firstName} label={t("auth.field.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("auth.field.lastName")} autoComplete="family-name" />
        <PhoneFields country={fields.phoneCountry} number={fields.phoneNumber} />
        <p className="form__aside">
          <AgreeToTerms />
        </p>
        <button type="submit" className="button">
          {t("auth.invitation.create")}
        </button>
      </Form>
    </>
  );
}
