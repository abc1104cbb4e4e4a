import { getFormProps, getSelectProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { actorOf } from "~/administration/guard.server";
import { listCountries } from "~/content/content.server";
import { helperAtDesk } from "~/help/guard.server";
import { HelpDeskPage } from "~/help/help-views";
import { limitsAllow, prepareInterview } from "~/help/prepared.server";
import { prepareSchema } from "~/help/schemas";
import { preparedWords } from "~/help/words";
import { ErrorSummary, showsErrors, summaryErrors, TextField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/help.prepared.new";

// Starting an interview for someone: the issue (within the helper's limits), who it is for, then on to the viewer.
export async function loader({ request, context }: Route.LoaderArgs) {
  const { limits } = helperAtDesk(context, request);
  const countries = (await listCountries())
    .map((country) => ({ ...country, issues: country.issues.filter((issue) => limitsAllow(limits, { id: issue.id, countryId: country.id })) }))
    .filter((country) => country.issues.length > 0);
  return { countries };
}

export async function action({ request, context }: Route.ActionArgs) {
  const helper = helperAtDesk(context, request);
  const submission = parseWithZod(await request.formData(), { schema: prepareSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const { issueId, ...person } = submission.value;
  const prepared = await prepareInterview(helper.user, helper.limits, issueId, person, actorOf(helper.user, context));
  if (!prepared) return data({ result: submission.reply({ fieldErrors: { issueId: [preparedWords.noGuide] } }) }, { status: 400 });
  return redirectWithToast(`/issues/${issueId}/interviews/${prepared.interviewId}`, {
    type: "success",
    message: `The interview for ${person.firstName} is started. Send the invitation from the help desk when you are ready.`,
  });
}

export default function PrepareInterview({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useForm({
    id: "prepare",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: prepareSchema }),
  });
  const errors = summaryErrors(
    [fields.issueId, preparedWords.issueLabel],
    [fields.firstName, "Their first name"],
    [fields.lastName, "Their last name"],
    [fields.email, "Their email"],
  );
  const { key, ...issueProps } = getSelectProps(fields.issueId, { ariaAttributes: false });
  const issueInvalid = Boolean(fields.issueId.errors?.length);
  return (
    <HelpDeskPage title={preparedWords.newTitle} errors={showsErrors(errors, form.errors)} trail={[{ label: preparedWords.listTitle, href: "/help/prepared" }]}>
      <p>{preparedWords.intro}</p>
      <ErrorSummary errors={errors} formErrors={form.errors} />
      <Form method="post" {...getFormProps(form)} noValidate className="form">
        <div className={`field${issueInvalid ? " field--invalid" : ""}`}>
          <label className="field__label" htmlFor={fields.issueId.id}>
            {preparedWords.issueLabel}
          </label>
          <select
            key={key}
            {...issueProps}
            required
            className="field__input"
            aria-invalid={issueInvalid || undefined}
            aria-describedby={issueInvalid ? fields.issueId.errorId : undefined}
          >
            <option value="">{preparedWords.chooseIssue}</option>
            {loaderData.countries.map((country) => (
              <optgroup key={country.id} label={country.name}>
                {country.issues.map((issue) => (
                  <option key={issue.id} value={issue.id}>
                    {issue.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
          <p className="field__error" id={fields.issueId.errorId}>
            {fields.issueId.errors?.[0] ?? ""}
          </p>
        </div>
        <TextField field={fields.firstName} label="Their first name" autoComplete="off" />
        <TextField field={fields.lastName} label="Their last name" autoComplete="off" />
        <TextField field={fields.email} label="Their email" type="email" autoComplete="off" hint={preparedWords.emailHint} />
        <button type="submit" className="button">
          {preparedWords.start}
        </button>
      </Form>
    </HelpDeskPage>
  );
}
