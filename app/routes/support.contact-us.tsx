import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { RateLimitError } from "~/auth/rate-limit.server";
import { clientAddressContext } from "~/request-context";
import { contactSchema, sendFailedMessage } from "~/support/contact";
import { sendContactMessage } from "~/support/contact.server";
import { ErrorSummary, showsErrors, summaryErrors, TextAreaField, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/support.contact-us";
import { logger } from "~/observability/log.server";
import { useT } from "~/i18n/react";
import { messageRef } from "~/i18n/translator";

const log = logger("contact");

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: contactSchema });
  if (submission.status !== "success") {
    return data({ result: submission.reply() }, { status: 400 });
  }
  try {
    await sendContactMessage(submission.value, context.get(clientAddressContext));
  } catch (error) {
    if (error instanceof RateLimitError) return data({ result: submission.reply({ formErrors: [error.ref] }) }, { status: 429 });
    log.error("sending failed", { err: error });
    return data({ result: submission.reply({ formErrors: [sendFailedMessage] }) }, { status: 502 });
  }
  return redirectWithToast("/support/contact-us", { type: "success", message: messageRef("public.contact.sent") });
}

export default function ContactUs({ actionData }: Route.ComponentProps) {
  const { t } = useT();
  const [form, fields] = useForm({
    id: "contact",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: contactSchema }),
  });
  const errors = summaryErrors(
    [fields.firstName, t("public.contact.firstName")],
    [fields.lastName, t("public.contact.lastName")],
    [fields.email, t("public.contact.email")],
    [fields.message, t("public.contact.message")],
  );
  return (
    <div className="page page--narrow">
      <PageTitle title={t("public.contact.title")} errors={showsErrors(errors, form.errors)} />
      <h1>{t("public.contact.title")}</h1>
      <p>{t("public.contact.intro")}</p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.firstName} label={t("public.contact.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("public.contact.lastName")} autoComplete="family-name" />
        <TextField field={fields.email} label={t("public.contact.email")} type="email" autoComplete="email" />
        <TextAreaField field={fields.message} label={t("public.contact.message")} />
        <button type="submit" className="button">
          {t("public.contact.send")}
        </button>
      </Form>
    </div>
  );
}
