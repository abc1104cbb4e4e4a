import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { sourcesTrail } from "~/sources/schemas";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { addSourceSchema } from "~/sources/schemas";
import { SourceForm } from "~/sources/source-form";
import { addSource, sourcePlaces, submittedContent } from "~/sources/sources.server";
import { resultShowsErrors } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.sources.new";

// The file is never sent back into the page (a browser cannot be given one); the rest of what was typed is.
const hideFields = ["file"];

export async function loader() {
  return { countries: await sourcePlaces() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const submission = parseWithZod(await request.formData(), { schema: addSourceSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400 });
  const { title, url, countryId, issueId, language } = submission.value;
  const refuse = (field: string, message: string) => data({ result: submission.reply({ fieldErrors: { [field]: [message] }, hideFields }) }, { status: 400 });
  const given = await submittedContent(submission.value);
  if (!given.ok) return refuse(given.field, given.message);
  const added = await addSource({ countryId, issueId: issueId ?? null, title, url, language }, given.content ?? { markdown: "" }, actor);
  if (!added.ok) return refuse(added.field, added.message);
  return redirectWithToast(`/admin/sources/${added.id}`, { type: "success", message: `${title} was added: ${added.passages} passage${added.passages === 1 ? "" : "s"}.` });
}

export default function AddSource({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminPage title="Add a source" trail={sourcesTrail} errors={resultShowsErrors(actionData?.result)}>
      <p>
        Upload a PDF, a Word file (.docx) or a markdown file, or paste markdown. Its text is split into passages by headings and paragraphs; the file
        itself is not kept.
      </p>
      <SourceForm places={loaderData.countries} result={actionData?.result} cancelHref="/admin/sources" submitLabel="Add source" />
    </AdminPage>
  );
}
