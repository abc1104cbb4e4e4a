import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form } from "react-router";
import { AccountPage } from "~/account/account-page";
import { accountMessages, profileOf, updateProfile } from "~/account/account.server";
import { PhoneFields } from "~/auth/phone-fields";
import { profileSchema } from "~/account/schemas";
import { invalid } from "~/auth/form-replies.server";
import { useT } from "~/i18n/react";
import { requireUser } from "~/auth/session.server";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import { messageRef } from "~/i18n/translator";
import { offersReusedAnswers, setOffersReusedAnswers } from "~/reuse/reuse.server";
import type { Route } from "./+types/account.edit-profile";

export async function loader({ context }: Route.LoaderArgs) {
  const userId = requireUser(context).id;
  const [profile, offerReused] = await Promise.all([profileOf(userId), offersReusedAnswers(userId)]);
  if (!profile) throw new Response("Not Found", { status: 404 });
  return { ...profile, offerReused };
}

export async function action({ request, context }: Route.ActionArgs) {
  const user = requireUser(context, request);
  const form = await request.formData();
  // The second form: whether a new interview offers the answers from before (issue 29).
  if (form.get("intent") === "reuse") {
    await setOffersReusedAnswers(user.id, form.get("offerReused") === "on");
    return redirectWithToast("/account/edit-profile", { type: "success", message: messageRef("reuse.setting.saved") });
  }
  const submission = parseWithZod(form, { schema: profileSchema });
  if (submission.status !== "success") return invalid(submission);
  await updateProfile(user.id, submission.value);
  return redirectWithToast("/account/edit-profile", { type: "success", message: accountMessages.profileUpdated });
}

export default function EditProfile({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "edit-profile",
    lastResult: actionData?.result,
    defaultValue: { firstName: loaderData.firstName, lastName: loaderData.lastName, phoneCountry: loaderData.phoneCountry, phoneNumber: loaderData.phoneNumber },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: profileSchema }),
  });
  const { t } = useT();
  const errors = summaryErrors(
    [fields.firstName, t("account.editProfile.firstName")],
    [fields.lastName, t("account.editProfile.lastName")],
    [fields.phoneCountry, t("account.editProfile.phoneCountry")],
    [fields.phoneNumber, t("account.editProfile.phoneNumber")],
  );
  return (
    <AccountPage title={t("account.editProfile.title")} errors={showsErrors(errors, form.errors)}>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <TextField field={fields.firstName} label={t("account.editProfile.firstName")} autoComplete="given-name" />
        <TextField field={fields.lastName} label={t("account.editProfile.lastName")} autoComplete="family-name" />
        <PhoneFields country={fields.phoneCountry} number={fields.phoneNumber} />
        <button type="submit" className="button">
          {t("account.editProfile.save")}
        </button>
      </Form>
      <section aria-labelledby="reuse-title">
        <h2 id="reuse-title">{t("reuse.setting.title")}</h2>
        <Form method="post" className="form">
          <input type="hidden" name="intent" value="reuse" />
          <div className="field field--check">
            <input id="offer-reused" type="checkbox" name="offerReused" defaultChecked={loaderData.offerReused} className="check" aria-describedby="offer-reused-hint" />
            <label htmlFor="offer-reused" className="check__label">
              {t("reuse.setting.label")}
            </label>
          </div>
          <p className="field__hint" id="offer-reused-hint">
            {t("reuse.setting.hint")}
          </p>
          <button type="submit" className="button button--secondary">
            {t("reuse.setting.save")}
          </button>
        </Form>
      </section>
    </AccountPage>
  );
}
