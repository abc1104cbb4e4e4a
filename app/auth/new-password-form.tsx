import { getFormProps, type SubmissionResult, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { useT } from "~/i18n/react";
import { ErrorSummary, summaryErrors, TextField } from "~/ui/form";
import { setPasswordSchema } from "./schemas";

/** Choosing a password from an emailed link (sign-up and reset): the link's code travels as a hidden field. */
export function NewPasswordForm({
  code,
  lastResult,
  submitLabel,
}: {
  code: string;
  lastResult: SubmissionResult<string[]> | undefined;
  submitLabel: string;
}) {
  const [form, fields] = useForm({
    id: "new-password",
    lastResult,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: setPasswordSchema }),
  });
  const { t } = useT();
  const password = t("auth.field.password");
  const confirm = t("auth.field.confirmPassword");
  return (
    <>
      <ErrorSummary errors={summaryErrors([fields.password, password], [fields.confirmPassword, confirm])} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <input type="hidden" name="code" value={code} />
        <TextField
          field={fields.password}
          label={password}
          type="password"
          autoComplete="new-password"
          hint={t("auth.newPassword.hint")}
        />
        <TextField field={fields.confirmPassword} label={confirm} type="password" autoComplete="new-password" />
        <button type="submit" className="button">
          {submitLabel}
        </button>
      </Form>
    </>
  );
}
