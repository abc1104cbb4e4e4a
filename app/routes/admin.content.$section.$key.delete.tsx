import { data } from "react-router";
import { AdminPage } from "~/administration/admin-page";
import { actorOf, requireAdministrator } from "~/administration/guard.server";
import { itemFromUrl, itemHref, itemTitle } from "~/content/items";
import { deleteContent, loadItem } from "~/content/versions.server";
import { notFound } from "~/http.server";
import { ErrorSummary } from "~/ui/form";
import { redirectWithToast } from "~/ui/toast.server";
import type { Route } from "./+types/admin.content.$section.$key.delete";

/** Only countries and issues are deleted; the pages always exist. */
function deletable(request: Request, params: Route.LoaderArgs["params"]) {
  const item = itemFromUrl(params.section, params.key);
  if (!item?.key || (item.kind !== "country" && item.kind !== "issue")) notFound(request);
  return { kind: item.kind, key: item.key };
}

export async function loader({ request, params }: Route.LoaderArgs) {
  const { kind, key } = deletable(request, params);
  const { published } = await loadItem(kind, key);
  if (!published) notFound(request);
  return { kind, name: itemTitle(kind, key, published.name), editHref: itemHref(kind, key) };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const actor = actorOf(requireAdministrator(context, request), context);
  const { kind, key } = deletable(request, params);
  const deleted = await deleteContent(kind, key, actor);
  if (!deleted.ok) return data({ error: deleted.message }, { status: 409 });
  return redirectWithToast("/admin/content", { type: "success", message: `The ${kind} is deleted. Its history is kept.` });
}

export default function DeleteContent({ loaderData, actionData }: Route.ComponentProps) {
  const { kind, name, editHref } = loaderData;
  return (
    <AdminPage title={`Delete ${kind}: ${name}`} errors={Boolean(actionData?.error)}>
      <ErrorSummary errors={[]} formErrors={actionData?.error ? [actionData.error] : []} />
      <p>
        {kind === "country"
          ? "The country leaves the home page. Only a country without issues can be deleted."
          : "The issue leaves the home page. Only an issue no one has started an interview on can be deleted."}{" "}
        Its history is kept, and the demo content is not loaded over it again.
      </p>
      <form method="post" className="button-row">
        <button type="submit" className="button button--danger">
          Delete {name}
        </button>
        <a className="button button--secondary" href={editHref}>
          No, keep it
        </a>
      </form>
    </AdminPage>
  );
}
