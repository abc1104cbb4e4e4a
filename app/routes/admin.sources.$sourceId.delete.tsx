import { AdminPage } from "~/administration/admin-page";
import { sourcesTrail } from "~/sources/schemas";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { notFound, parseId } from "~/http.server";
import { deleteSource, getSource } from "~/sources/sources.server";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.sources.$sourceId.delete";

export async function loader({ request, params }: Route.LoaderArgs) {
  const id = parseId(params.sourceId);
  const source = id === null ? null : await getSource(id);
  if (!source) notFound(request);
  return { source: { id: source.id, title: source.title, passages: source.passageList.length } };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const id = parseId(params.sourceId);
  const deleted = id === null ? null : await deleteSource(id, actor);
  if (!deleted) notFound(request);
  return redirectWithToast("/admin/sources", { type: "success", message: `${deleted.title} was deleted.` });
}

export default function DeleteSource({ loaderData: { source } }: Route.ComponentProps) {
  return (
    <AdminPage title="Delete a source" trail={sourcesTrail}>
      <h2>Are you sure you want to delete {source.title}?</h2>
      <p>
        Its {source.passages} passage{source.passages === 1 ? "" : "s"} will no longer be searched or cited. This cannot be undone: to use the source
        again, add it again.
      </p>
      <form method="post" className="button-row">
        <button type="submit" className="button button--danger">
          Yes, delete
        </button>
        <a className="button button--secondary" href={`/admin/sources/${source.id}`}>
          No, keep
        </a>
      </form>
    </AdminPage>
  );
}
