import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { reminderSettings, setReminderSettings } from "~/reminders/reminders.server";
import { reminderSettingsSchema } from "~/reminders/schemas";
import { ErrorSummary, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.reminders";

// The organisation's reminders of unfinished interviews: the delay, or none (docs/decisions/0050-reminders.md).
export async function loader() {
  return { settings: await reminderSettings() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const submission = parseWithZod(await request.formData(), { schema: reminderSettingsSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const days = submission.value.days === 0 ? null : submission.value.days;
  await setReminderSettings({ days }, actor);
  return redirectWithToast("/admin/reminders", { type: "success", message: days === null ? "Reminders are off." : `Reminders are sent ${days} ${days === 1 ? "day" : "days"} after a person asks.` });
}

const LABEL = "Days to wait before the reminder";

export default function Reminders({ loaderData, actionData }: Route.ComponentProps) {
  const { days } = loaderData.settings;
  const [form, fields] = useForm({
    id: "reminders",
    lastResult: actionData?.result,
    defaultValue: { days: String(days ?? 0) },
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: reminderSettingsSchema }),
  });
  return (
    <AdminPage title="Reminders" errors={Boolean(fields.days.errors?.length)}>
      <p>
        When a person saves an interview and leaves, they can ask for one email if they have not finished it after this many days. The email
        links to the interview and has a link to stop reminders. It is never sent once the interview is completed or deleted, and no person gets
        more than one reminder a day.
      </p>
      <p>{days === null ? "Reminders are off: the offer is not shown, and reminders already asked for are held until they are turned on." : `Now: ${days} ${days === 1 ? "day" : "days"}.`}</p>
      <ErrorSummary errors={summaryErrors([fields.days, LABEL])} />
      <Form method="post" {...getFormProps(form)} className="form">
        <TextField field={fields.days} label={LABEL} hint="A whole number from 1 to 90. 0 turns reminders off." inputMode="numeric" />
        <button type="submit" className="button">
          Save reminders
        </button>
      </Form>
    </AdminPage>
  );
}
