import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { notFound, parseId } from "~/http.server";
import { editSourceSchema, sourcesTrail } from "~/sources/schemas";
import { SourceForm } from "~/sources/source-form";
import { getSource, sourcePlaces, submittedContent, updateSource } from "~/sources/sources.server";
import { resultShowsErrors } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.sources.$sourceId.edit";

// The file is never sent back into the page (a browser cannot be given one); the rest of what was typed is.
const hideFields = ["file"];

async function sourceOrNotFound(request: Request, sourceId: string) {
  const id = parseId(sourceId);
  const source = id === null ? null : await getSource(id);
  if (!source) notFound(request);
  return source;
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const source = await sourceOrNotFound(request, params.sourceId);
  return {
    source: { id: source.id, title: source.title, url: source.url, countryId: source.countryId, issueId: source.issueId, language: source.language, passages: source.passageList.length },
    countries: await sourcePlaces(),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const source = await sourceOrNotFound(request, params.sourceId);
  const submission = parseWithZod(await request.formData(), { schema: editSourceSchema });
  if (submission.status !== "success") return data({ result: submission.reply({ hideFields }) }, { status: 400 });
  const { title, url, countryId, issueId, language } = submission.value;
  const refuse = (field: string, message: string) => data({ result: submission.reply({ fieldErrors: { [field]: [message] }, hideFields }) }, { status: 400 });
  const given = await submittedContent(submission.value);
  if (!given.ok) return refuse(given.field, given.message);
  const changed = await updateSource(source.id, { countryId, issueId: issueId ?? null, title, url, language }, given.content, actor);
  if (!changed) notFound(request);
  if (!changed.ok) return refuse(changed.field, changed.message);
  const text = given.content ? ` Its text is replaced: ${changed.passages} passage${changed.passages === 1 ? "" : "s"}.` : "";
  return redirectWithToast(`/admin/sources/${source.id}`, { type: "success", message: `${title} was saved.${text}` });
}

export default function EditSource({ loaderData: { source, countries }, actionData }: Route.ComponentProps) {
  return (
    <AdminPage title={`Edit ${source.title}`} trail={[...sourcesTrail, { label: source.title, href: `/admin/sources/${source.id}` }]} errors={resultShowsErrors(actionData?.result)}>
      <p>
        Change where the source belongs, its title or its link. To replace its text ({source.passages} passage{source.passages === 1 ? "" : "s"} now), upload
        a new file or paste new text; leave both empty to keep it.
      </p>
      <SourceForm places={countries} result={actionData?.result} current={source} cancelHref={`/admin/sources/${source.id}`} submitLabel="Save changes" />
    </AdminPage>
  );
}
