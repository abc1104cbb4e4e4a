import { getFormProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, Form } from "react-router";
import { actorOf } from "~/administration/guard.server";
import { helperAtDesk } from "~/help/guard.server";
import { HelpDeskPage, languageName, RepliesList, When } from "~/help/help-views";
import { replySchema } from "~/help/schemas";
import { closeRequest, openRequest, recordView, replyPages, replyToRequest, requestReplies, sharedFiles, takeRequest } from "~/help/shares.server";
import { deskWords, shareWords } from "~/help/words";
import { notFound } from "~/http.server";
import { ErrorSummary, showsErrors, summaryErrors, TextAreaField } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/help.requests.$shareId";

async function open({ request, params, context }: Route.LoaderArgs | Route.ActionArgs) {
  const helper = helperAtDesk(context, request);
  const found = await openRequest(helper.user.id, helper.limits, params.shareId);
  if (!found) notFound(request);
  return { helper, found };
}

// One request: what it is and its message for every helper who may see it; what was shared, and replying, for
// the helper who took it. Each opening is listed for the person ("Who has seen it").
export async function loader(args: Route.LoaderArgs) {
  const { helper, found } = await open(args);
  await recordView(found, helper.user, "request");
  const [replies, files, pages] = found.mine
    ? await Promise.all([requestReplies(found), sharedFiles(found), found.answers ? replyPages(found) : Promise.resolve([])])
    : [await requestReplies(found), [], []];
  const { ownerId: _owner, interviewId: _interview, ...shown } = found;
  return { request: shown, replies, files: files.map(({ storageKey: _key, ...file }) => file), pages };
}

export async function action(args: Route.ActionArgs) {
  const { helper, found } = await open(args);
  const { request, context } = args;
  const here = `/help/requests/${found.id}`;
  const actor = actorOf(helper.user, context);
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "take") {
    const taken = await takeRequest(found, helper.user, actor);
    return redirectWithToast(here, taken ? { type: "success", message: deskWords.takenToast } : { type: "error", message: deskWords.alreadyTaken });
  }
  if (!found.mine) notFound(request);
  if (intent === "close") {
    await closeRequest(found, helper.user, actor);
    return redirectWithToast("/help", { type: "success", message: deskWords.closedToast });
  }
  const submission = parseWithZod(form, { schema: replySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const pages = submission.value.about && found.answers ? await replyPages(found) : [];
  const about = submission.value.about ? pages.find((page) => page.page === submission.value.about) : null;
  if (about === undefined) return data({ result: submission.reply({ fieldErrors: { about: [deskWords.unknownPage] } }) }, { status: 400 });
  await replyToRequest(found, helper.user, { body: submission.value.body, about }, actor);
  return redirectWithToast(here, { type: "success", message: deskWords.sentToast });
}

const sizeText = (bytes: number) => (bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} kB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`);
const kindText = (contentType: string) => (contentType === "application/pdf" ? "PDF" : "Word");

export default function HelpRequest({ loaderData, actionData }: Route.ComponentProps) {
  const { request, replies, files, pages } = loaderData;
  const [form, fields] = useForm({
    id: "reply",
    lastResult: actionData?.result,
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: replySchema }),
  });
  const errors = summaryErrors([fields.about, deskWords.aboutLabel], [fields.body, deskWords.replyLabel]);
  const shared = [request.answers ? "Answers" : null, request.documents ? "Document" : null, request.files ? "Uploaded files" : null].filter(Boolean).join(", ");
  const status =
    request.status === "new" ? deskWords.statuses.new : request.status === "taken" ? `Taken by ${request.takenByName}` : `Closed by ${request.takenByName}`;
  return (
    <HelpDeskPage title={`Request: ${request.issueName}`} errors={showsErrors(errors, form.errors)}>
      <dl className="summary-list">
        <div>
          <dt>Issue</dt>
          <dd>{request.issueName}</dd>
        </div>
        <div>
          <dt>Country</dt>
          <dd>{request.countryName}</dd>
        </div>
        <div>
          <dt>Language</dt>
          <dd>{languageName(request.language)}</dd>
        </div>
        <div>
          <dt>Received</dt>
          <dd>
            <When at={request.createdAt} withTime />
          </dd>
        </div>
        <div>
          <dt>Shared until</dt>
          <dd>
            <When at={request.expiresAt} />
          </dd>
        </div>
        <div>
          <dt>Interview</dt>
          <dd>{request.interviewStatus === "Completed" ? "Finished" : "Not finished yet"}</dd>
        </div>
        <div>
          <dt>What they share</dt>
          <dd>{shared}</dd>
        </div>
        <div>
          <dt>Status</dt>
          <dd>{status}</dd>
        </div>
      </dl>

      <h2>Their message</h2>
      {request.message ? <blockquote className="help-message">{request.message}</blockquote> : <p>They did not write a message.</p>}

      {request.status === "new" ? (
        <form method="post" className="form">
          <p>{deskWords.takeHint}</p>
          <button type="submit" name="intent" value="take" className="button">
            {deskWords.take}
          </button>
        </form>
      ) : null}

      {request.mine ? (
        <>
          <h2>What they shared</h2>
          <ul className="link-list">
            {request.answers ? (
              <li>
                <a href={`/help/requests/${request.id}/answers`}>Read the answers</a>
              </li>
            ) : null}
            {request.documents ? (
              <li>
                <a href={`/help/requests/${request.id}/document`}>Download the document</a>
              </li>
            ) : null}
            {files.map((file) => (
              <li key={file.id}>
                <a href={`/help/requests/${request.id}/files/${file.id}`}>
                  Download {file.fileName} ({kindText(file.contentType)}, {sizeText(file.size)})
                </a>
              </li>
            ))}
            {request.files && !files.length ? <li>They have not uploaded any file.</li> : null}
          </ul>

          <RepliesList replies={replies} />
          <h2 id="reply-title">Reply</h2>
          <ErrorSummary errors={errors} formErrors={form.errors} />
          <Form method="post" {...getFormProps(form)} noValidate className="form" aria-labelledby="reply-title">
            <input type="hidden" name="intent" value="reply" />
            {pages.length ? (
              <div className={`field${fields.about.errors?.length ? " field--invalid" : ""}`}>
                <label className="field__label" htmlFor={fields.about.id}>
                  {deskWords.aboutLabel}
                </label>
                <select
                  id={fields.about.id}
                  name={fields.about.name}
                  defaultValue={(fields.about.initialValue as string | undefined) ?? ""}
                  className="field__input"
                  aria-invalid={fields.about.errors?.length ? true : undefined}
                  aria-describedby={fields.about.errors?.length ? fields.about.errorId : undefined}
                >
                  <option value="">{shareWords.wholeInterview}</option>
                  {pages.map((page) => (
                    <option key={page.page} value={page.page}>
                      {page.label}
                    </option>
                  ))}
                </select>
                <p className="field__error" id={fields.about.errorId}>
                  {fields.about.errors?.[0] ?? ""}
                </p>
              </div>
            ) : null}
            <TextAreaField field={fields.body} label={deskWords.replyLabel} hint={deskWords.replyHint} rows={8} />
            <button type="submit" className="button">
              {deskWords.send}
            </button>
          </Form>

          <form method="post" className="form">
            <h2>Finished helping?</h2>
            <p>{deskWords.closeHint}</p>
            <button type="submit" name="intent" value="close" className="button button--secondary">
              {deskWords.close}
            </button>
          </form>
        </>
      ) : null}

      {request.mine ? null : <RepliesList replies={replies} />}
      <p className="account-back">
        <a href="/help">Back to the help desk</a>
      </p>
    </HelpDeskPage>
  );
}
