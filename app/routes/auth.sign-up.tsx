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
  const errors = summaryErrors(
    [fields.firstName, "First name"],
    [fields.lastName, "Last name"],
    [fields.email, "Email"],
    [fields.phoneCountry, "Country code"],
    [fields.phoneNumber, "Phone number"],
  );
  return (
    <div className="page page--narrow">
      <PageTitle title="Create an account" errors={showsErrors(errors, form.errors)} />
      <h1>Create an account</h1>
      <p>
        Already have an account? <a href={loaderData.signIn}>Sign in</a>.
      </p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.firstName} label="First name" autoComplete="given-name" />
        <TextField field={fields.lastName} label="Last name" autoComplete="family-name" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" hint="We will send you a link to verify it." />
        <PhoneFields country={fields.phoneCountry} number={fields.phoneNumber} />
        <p className="form__aside">
          By creating an account you agree to our <a href="/legal/terms-and-conditions">Terms &amp; Conditions</a> and
          our <a href="/legal/privacy-policies">Privacy Policy</a>.
        </p>
        <button type="submit" className="button">
          Create an account
        </button>
      </Form>
    </div>
  );
}
