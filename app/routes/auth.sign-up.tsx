import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, redirect } from "react-router";
import { signUp } from "~/auth/accounts.server";
import { writeFlowState } from "~/auth/flow-state.server";
import { requestedReturn, withReturn } from "~/auth/return-to";
import { invalid, limited, refuse } from "~/auth/form-replies.server";
import { DEFAULT_PHONE_COUNTRY } from "~/auth/phone-countries";
import { PhoneFields } from "~/auth/phone-fields";
import { signUpSchema } from "~/auth/schemas";
import { clientAddressContext, languageContext } from "~/request-context";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { AgreeToTerms } from "~/auth/agree-to-terms";
import { RichText, useT } from "~/i18n/react";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.sign-up";

export function loader({ request }: Route.LoaderArgs) {
  return { signIn: withReturn("/auth/sign-in", requestedReturn(request)) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const submission = parseWithZod(await request.formData(), { schema: signUpSchema });
  if (submission.status !== "success") return invalid(submission);
  return limited(submission, async () => {
    const refused = await signUp({ ...submission.value, language: context.get(languageContext) }, context.get(clientAddressContext), undefined, requestedReturn(request));
    if (refused) return refuse(submission, refused);
    return redirect("/auth/sign-up/email-sent", {
      headers: { "Set-Cookie": await writeFlowState({ email: submission.value.email }) },
    });
  });
}

export default function SignUp({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "sign-up",
    lastResult: actionData?.result,
    defaultValue: { phoneCountry: DEFAULT_PHONE_COUNTRY },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: signUpSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors(
    [fields.firstName, t("auth.field.firstName")],
    [fields.lastName, t("auth.field.lastName")],
    [fields.email, t("auth.field.email")],
    [fields.phoneCountry, t("auth.phone.country")],
    [fields.phoneNumber, t("auth.phone.number")],
  );
  return (
    <div className="page page--narrow">
      <PageTitle title={t("auth.signUp.title")} errors={showsErrors(errors, form.errors)} />
      <h1>{t("auth.signUp.title")}</h1>
      <p>
        <RichText id="auth.signUp.haveAccount" tags={{ link: (words) => <a href={loaderData.signIn}>{words}</a> }} />
      </p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.firstName} label={t("auth.field.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("auth.field.lastName")} autoComplete="family-name" />
        <TextField field={fields.email} label={t("auth.field.email")} type="email" autoComplete="email" hint={t("auth.signUp.emailHint")} />
        <PhoneFields country={fields.phoneCountry} number={fields.phoneNumber} />
        <p className="form__aside">
          <AgreeToTerms />
        </p>
        <button type="submit" className="button">
          {t("auth.signUp.submit")}
        </button>
      </Form>
    </div>
  );
}
