import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AccountPage } from "~/account/account-page";
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { notFound } from "~/http.server";
import { useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";
import { clientAddressContext } from "~/request-context";
import { finishIfSigned, signAndInvite } from "~/signing/flow.server";
import { currentRequest, signaturePlaces } from "~/signing/requests.server";
import { ownSignatureSchema } from "~/signing/schemas";
import { SignatureFields, TypedSignature } from "~/signing/signature-fields";
import { ErrorSummary, type LabelledField, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/account.interview.$interviewId.sign";

// Signing a completed interview's documents (issue 30, docs/decisions/0055): the person reads the document, names
// the others who must sign, and signs by typing their full name (or, with scripts, drawing too); then this page
// shows who has signed, who is waiting and who declined, and, once everyone has, the signed document.
export const handle = { scripts: ["/scripts/signature-pad.js"] };

async function target(request: Request, userId: string, interviewId: string) {
  const places = await signaturePlaces(userId, interviewId);
  if (!places || !places.markers.length) notFound(request);
  return places;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = requireUser(context, request);
  const places = await target(request, user.id, params.interviewId);
  let live = await currentRequest(user.id, params.interviewId);
  if (live?.status === "open" && live.signers.every((signer) => signer.status === "signed") && (await finishIfSigned(live.id))) {
    live = await currentRequest(user.id, params.interviewId);
  }
  return {
    interviewId: params.interviewId,
    issueId: places.interview.issueId,
    sensitive: places.issue?.sensitive ?? false,
    otherRoles: places.markers.slice(1).map((marker) => marker.label),
    request: live,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const places = await target(request, user.id, params.interviewId);
  const submission = parseWithZod(await request.formData(), { schema: ownSignatureSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const address = context.get(clientAddressContext);
  const refused = await refuseCostlyUse("signing", user.id, address);
  if (refused) return data({ result: submission.reply({ formErrors: [refused.ref] }) }, { status: 429 });
  const here = `/account/interview/${params.interviewId}/sign`;
  const { fullName, drawing, others } = submission.value;
  if (others.length !== places.markers.length - 1) return data({ result: submission.reply({ formErrors: [messageRef("signing.own.othersMissing")] }) }, { status: 400 });
  const result = await signAndInvite(
    { id: user.id, email: user.email, firstName: user.firstName, lastName: user.lastName, language: user.language ?? "en" },
    params.interviewId,
    { typedName: fullName, drawing: drawing ?? null, others },
    { id: user.id, email: user.email, address },
  );
  if (result.kind === "not-found") notFound(request);
  if (result.kind === "others") return data({ result: submission.reply({ formErrors: [messageRef("signing.own.othersMissing")] }) }, { status: 400 });
  const message = result.kind === "already" ? "signing.own.already" : result.complete ? "signing.own.signedComplete" : result.invitations.length ? "signing.own.signedInvited" : "signing.own.signedNotReady";
  return redirectWithToast(here, { type: "success", message: messageRef(message) });
}

export default function SignDocument({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const { interviewId, otherRoles, request } = loaderData;
  const [form, fields] = useForm<{ fullName: string; drawing: string; confirm: string; others: { name: string; email: string }[] }>({
    id: "sign",
    lastResult: actionData?.result,
    defaultValue: { others: otherRoles.map(() => ({ name: "", email: "" })) },
    shouldValidate: "onBlur",
  });
  const others = fields.others.getFieldList();
  const labelled: LabelledField[] = others.flatMap((other, index) => {
    const parts = other.getFieldset();
    return [
      [parts.name, t.t("signing.own.otherName", { role: otherRoles[index] ?? "" })] as const,
      [parts.email, t.t("signing.own.otherEmail", { role: otherRoles[index] ?? "" })] as const,
    ];
  });
  const errors = summaryErrors(...labelled, [fields.fullName, t.t("signing.fields.fullName")], [fields.confirm, t.t("signing.fields.confirm")]);
  const title = request ? t.t("signing.own.statusTitle") : t.t("signing.own.title");
  const documentLink = (
    <p>
      <a className="button button--secondary" href={`/account/interview/${interviewId}/download`}>
        {t.t("signing.readDocument")}
      </a>
    </p>
  );
  return (
    <AccountPage title={title} errors={!request && showsErrors(errors, form.errors)} quickExit={loaderData.sensitive}>
      {request ? (
        <>
          {request.status === "complete" ? (
            <div className="notice notice--success" role="status">
              <p>{t.t("signing.own.complete")}</p>
              <p>
                <a className="button" href={`/account/interview/${interviewId}/signed`}>
                  {t.t("signing.own.downloadSigned")}
                </a>
              </p>
            </div>
          ) : request.signers.some((signer) => signer.status === "declined") ? (
            <div className="notice" role="note">
              <p>{t.t("signing.own.declinedNote")}</p>
            </div>
          ) : (
            <p>{t.t("signing.own.waitingNote")}</p>
          )}
          <h2>{t.t("signing.own.signersHeading")}</h2>
          <ul className="signer-list">
            {request.signers.map((signer) => (
              <li key={signer.id}>
                <p>
                  <strong translate="no">{signer.name}</strong>
                  {/* The person's own place (the first) is theirs: its label ("User", "Applicant") names no one. */}
                  {signer.position === 0 ? null : ` (${signer.role})`}
                </p>
                {signer.status === "signed" && signer.signedAt ? (
                  <>
                    <p>{t.t("signing.status.signed", { date: t.date(signer.signedAt, { day: "numeric", month: "long", year: "numeric" }) })}</p>
                    <TypedSignature name={signer.name} signedAt={signer.signedAt} method={signer.method} />
                  </>
                ) : null}
                {signer.status === "waiting" ? (
                  <p>{t.t("signing.status.waiting", { email: signer.email, date: t.date(signer.linkExpiresAt ?? request.createdAt, { day: "numeric", month: "long", year: "numeric" }) })}</p>
                ) : null}
                {signer.status === "declined" ? (
                  <>
                    <p>{t.t("signing.status.declined", { date: t.date(signer.declinedAt ?? request.createdAt, { day: "numeric", month: "long", year: "numeric" }) })}</p>
                    <blockquote className="signer-reason">
                      <p dir="auto">{signer.declineReason}</p>
                    </blockquote>
                  </>
                ) : null}
              </li>
            ))}
          </ul>
        </>
      ) : (
        <>
          <p>{t.t("signing.own.intro")}</p>
          {documentLink}
          <ErrorSummary errors={errors} formErrors={form.errors} />
          <Form method="post" {...getFormProps(form)} noValidate className="form">
            {others.map((other, index) => {
              const parts = other.getFieldset();
              const role = otherRoles[index] ?? "";
              return (
                <fieldset className="fieldset" key={other.key}>
                  <legend className="fieldset__legend">{t.t("signing.own.otherLegend", { role })}</legend>
                  <p className="field__hint">{t.t("signing.own.otherHint")}</p>
                  <TextField field={parts.name} label={t.t("signing.own.otherName", { role })} autoComplete="off" />
                  <TextField field={parts.email} label={t.t("signing.own.otherEmail", { role })} type="email" autoComplete="off" />
                </fieldset>
              );
            })}
            <SignatureFields fullName={fields.fullName} drawing={fields.drawing} confirm={fields.confirm} />
            <button type="submit" className="button">
              {t.t("signing.signButton")}
            </button>
          </Form>
        </>
      )}
      <form method="post" action={`/account/interview/${interviewId}/correct`} className="signing-change">
        <p>
          {t.t("signing.own.changeNote")}{" "}
          <button type="submit" className="link-button">
            {t.t("public.interview.changeAnswers")}
          </button>
        </p>
      </form>
    </AccountPage>
  );
}
