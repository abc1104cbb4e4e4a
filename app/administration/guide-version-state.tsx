import type { GuideVersionSummary } from "~/guides/guides.server";
import { AdminTime } from "~/ui/admin-lists";


/** Where a version stands: published now (since when), published before, waiting, or discarded. */
export function VersionState({ version }: { version: Pick<GuideVersionSummary, "published" | "publishedAt" | "discardedAt"> }) {
  if (version.discardedAt) return <>Discarded <AdminTime at={version.discardedAt} /></>;
  if (!version.publishedAt) return <>Waiting to be published</>;
  return (
    <>
      {version.published ? "Published" : "Was published"} <AdminTime at={version.publishedAt} />
    </>
  );
}
