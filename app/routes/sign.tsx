import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { createCookie, data, Form, redirect } from "react-router";
import { countAttempt, RateLimitError } from "~/auth/rate-limit.server";
import { config } from "~/config.server";
import { useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
import { clientAddressContext } from "~/request-context";
import { declineThroughLink, sendCode, signingLimits, signThroughLink, tryCode } from "~/signing/flow.server";
import { linkState, VISIT_MINUTES } from "~/signing/requests.server";
import { codeSchema, declineSchema, otherSignatureSchema } from "~/signing/schemas";
import { SignatureFields } from "~/signing/signature-fields";
import { ErrorSummary, showsErrors, summaryErrors, TextAreaField, TextField } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/sign";

// The emailed link to sign (?code=…), for someone who has no account (docs/decisions/0055): opening it changes
// nothing (mail scanners open links). The signer asks for a one-time code sent to the same email; with it, this
// browser may read the document and sign, or decline with a reason, for an hour. Each request from an address is
// counted (app/auth/rate-limit.server.ts); a link signed or declined, past its 14 days, or whose document changed,
// says so and does nothing more.
export const handle = { scripts: ["/scripts/signature-pad.js"] };

const codeOf = (value: unknown) => (typeof value === "string" ? value.slice(0, 100) : "");

function visitCookie() {
  const secure = config().isHttps;
  return createCookie(secure ? "__Secure-signer-visit" : "signer-visit", { httpOnly: true, secure, sameSite: "lax", path: "/sign", maxAge: VISIT_MINUTES * 60, secrets: config().sessionSecrets });
}

async function visitOf(request: Request): Promise<string | null> {
  const value: unknown = await visitCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" ? value : null;
}

function masked(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  return `${local.slice(0, 1)}•••@${domain}`;
}

async function limited(address: string): Promise<RateLimitError | null> {
  try {
    await countAttempt([[`sign-link:address:${address}`, signingLimits.linkPerAddress]]);
    return null;
  } catch (error) {
    if (error instanceof RateLimitError) return error;
    throw error;
  }
}

export async function loader({ request, context }: Route.LoaderArgs) {
  const code = codeOf(new URL(request.url).searchParams.get("code"));
  const refused = await limited(context.get(clientAddressContext));
  if (refused) return data({ state: "limited" as const, message: refused.ref }, { status: 429 });
  const state = await linkState(code, await visitOf(request), new Date());
  if (state.kind !== "active") return data({ state: state.kind }, { status: state.kind === "unknown" ? 404 : 200 });
  return {
    state: "active" as const,
    code,
    ownerName: state.ownerName,
    title: state.title,
    role: state.signer.role,
    name: state.signer.name,
    email: masked(state.signer.email),
    codeSent: state.codeSent,
    verified: state.verified,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const code = codeOf(form.get("code"));
  const address = context.get(clientAddressContext);
  const here = `/sign?${new URLSearchParams({ code })}`;
  const intent = form.get("intent");
  const refused = await limited(address);
  if (refused) return data({ intent: "limited", result: null, message: refused.ref }, { status: 429 });
  try {
    if (intent === "send") {
      if (!(await sendCode(code, address))) return redirect(here, 303);
      return data({ intent: "send", result: null, message: messageRef("signing.link.codeSent") });
    }
    if (intent === "check") {
      const submission = parseWithZod(form, { schema: codeSchema });
      if (submission.status !== "success") return data({ intent: "check", result: submission.reply(), message: null }, { status: 400 });
      const checked = await tryCode(code, submission.value.oneTimeCode, address);
      if (checked.kind === "ok") return redirect(here, { status: 303, headers: { "Set-Cookie": await visitCookie().serialize(checked.visit) } });
      if (checked.kind === "gone") return redirect(here, 303);
      const message = checked.kind === "wrong" ? messageRef("signing.link.codeWrong", { tries: checked.triesLeft }) : messageRef("signing.link.codeSpent");
      return data({ intent: "check", result: submission.reply({ fieldErrors: { oneTimeCode: [message] } }), message: null }, { status: 400 });
    }
    const visit = await visitOf(request);
    if (intent === "sign") {
      const submission = parseWithZod(form, { schema: otherSignatureSchema });
      if (submission.status !== "success") return data({ intent: "sign", result: submission.reply(), message: null }, { status: 400 });
      await signThroughLink(code, visit, { typedName: submission.value.fullName, drawing: submission.value.drawing ?? null }, address);
      return redirect(here, 303);
    }
    if (intent === "decline") {
      const submission = parseWithZod(form, { schema: declineSchema });
      if (submission.status !== "success") return data({ intent: "decline", result: submission.reply(), message: null }, { status: 400 });
      await declineThroughLink(code, visit, submission.value.reason, address);
      return redirect(here, 303);
    }
  } catch (error) {
    if (error instanceof RateLimitError) return data({ intent: String(intent), result: null, message: error.ref }, { status: 429 });
    throw error;
  }
  return redirect(here, 303);
}

const endTitles = {
  unknown: "signing.link.unknownTitle",
  expired: "signing.link.expiredTitle",
  signed: "signing.link.signedTitle",
  declined: "signing.link.declinedTitle",
  replaced: "signing.link.replacedTitle",
  limited: "signing.link.limitedTitle",
} as const;
const endBodies = {
  unknown: "signing.link.unknownBody",
  expired: "signing.link.expiredBody",
  signed: "signing.link.signedBody",
  declined: "signing.link.declinedBody",
  replaced: "signing.link.replacedBody",
  limited: "signing.link.limitedBody",
} as const;

export default function SignThroughLink({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  if (loaderData.state !== "active") {
    const title = t.t(endTitles[loaderData.state]);
    return (
      <div className="page page--narrow">
        <PageTitle title={title} />
        <h1>{title}</h1>
        <p>{"message" in loaderData ? t.message(loaderData.message) : t.t(endBodies[loaderData.state])}</p>
      </div>
    );
  }
  return <ActiveLink view={loaderData} actionData={actionData} />;
}

type Active = Extract<Route.ComponentProps["loaderData"], { state: "active" }>;

function ActiveLink({ view, actionData }: { view: Active; actionData: Route.ComponentProps["actionData"] }) {
  const t = useT();
  const result = (intent: string) => (actionData?.intent === intent ? actionData.result ?? undefined : undefined);
  const [codeForm, codeFields] = useForm<{ oneTimeCode: string }>({ id: "code", lastResult: result("check"), shouldValidate: "onBlur" });
  const [signForm, signFields] = useForm<{ fullName: string; drawing: string; confirm: string }>({ id: "sign", lastResult: result("sign"), shouldValidate: "onBlur" });
  const [declineForm, declineFields] = useForm<{ reason: string }>({ id: "decline", lastResult: result("decline"), shouldValidate: "onBlur" });
  const codeErrors = summaryErrors([codeFields.oneTimeCode, t.t("signing.link.codeLabel")]);
  const signErrors = summaryErrors([signFields.fullName, t.t("signing.fields.fullName")], [signFields.confirm, t.t("signing.fields.confirm")]);
  const declineErrors = summaryErrors([declineFields.reason, t.t("signing.link.reasonLabel", { owner: view.ownerName })]);
  const anyErrors = showsErrors(codeErrors, codeForm.errors) || showsErrors(signErrors, signForm.errors) || showsErrors(declineErrors, declineForm.errors);
  const title = t.t("signing.link.title");
  const hidden = <input type="hidden" name="code" value={view.code} />;
  return (
    <div className="page page--narrow">
      <PageTitle title={title} errors={anyErrors} />
      <h1>{title}</h1>
      <p>{t.t("signing.link.intro", { owner: view.ownerName, title: view.title, role: view.role })}</p>
      {actionData?.message ? (
        <div className={actionData.intent === "send" ? "notice notice--success" : "notice notice--error"} role={actionData.intent === "send" ? "status" : "alert"}>
          <p>{t.message(actionData.message)}</p>
        </div>
      ) : null}
      {view.verified ? (
        <>
          <p>
            <a className="button button--secondary" href={`/sign/document?${new URLSearchParams({ code: view.code })}`}>
              {t.t("signing.readDocument")}
            </a>
          </p>
          <ErrorSummary errors={signErrors} formErrors={signForm.errors} />
          <Form method="post" {...getFormProps(signForm)} noValidate className="form">
            {hidden}
            <input type="hidden" name="intent" value="sign" />
            <SignatureFields fullName={signFields.fullName} drawing={signFields.drawing} confirm={signFields.confirm} />
            <button type="submit" className="button">
              {t.t("signing.signButton")}
            </button>
          </Form>
          <h2>{t.t("signing.link.declineHeading")}</h2>
          <ErrorSummary errors={declineErrors} formErrors={declineForm.errors} />
          <Form method="post" {...getFormProps(declineForm)} noValidate className="form">
            {hidden}
            <input type="hidden" name="intent" value="decline" />
            <TextAreaField field={declineFields.reason} label={t.t("signing.link.reasonLabel", { owner: view.ownerName })} hint={t.t("signing.link.reasonHint", { owner: view.ownerName })} rows={4} />
            <button type="submit" className="button button--secondary">
              {t.t("signing.link.declineButton")}
            </button>
          </Form>
        </>
      ) : (
        <>
          <p>{t.t("signing.link.codeIntro", { email: view.email })}</p>
          {view.codeSent ? (
            <>
              <ErrorSummary errors={codeErrors} formErrors={codeForm.errors} />
              <Form method="post" {...getFormProps(codeForm)} noValidate className="form">
                {hidden}
                <input type="hidden" name="intent" value="check" />
                <TextField field={codeFields.oneTimeCode} label={t.t("signing.link.codeLabel")} hint={t.t("signing.link.codeHint")} autoComplete="one-time-code" inputMode="numeric" />
                <button type="submit" className="button">
                  {t.t("signing.link.continue")}
                </button>
              </Form>
            </>
          ) : null}
          <Form method="post" className="form">
            {hidden}
            <input type="hidden" name="intent" value="send" />
            <button type="submit" className={view.codeSent ? "button button--secondary" : "button"}>
              {view.codeSent ? t.t("signing.link.sendAgain") : t.t("signing.link.send")}
            </button>
          </Form>
        </>
      )}
    </div>
  );
}
