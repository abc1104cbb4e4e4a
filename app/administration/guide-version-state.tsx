import type { GuideVersionSummary } from "~/guides/guides.server";

/** Times on the administration pages: UTC, day and minute. */
export const when = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });

/** Where a version stands: published now (since when), published before, waiting, or discarded. */
export function VersionState({ version }: { version: Pick<GuideVersionSummary, "published" | "publishedAt" | "discardedAt"> }) {
  if (version.discardedAt) return <>Discarded {formatted(version.discardedAt)}</>;
  if (!version.publishedAt) return <>Waiting to be published</>;
  return (
    <>
      {version.published ? "Published" : "Was published"} {formatted(version.publishedAt)}
    </>
  );
}

function formatted(iso: string) {
  return <time dateTime={iso}>{when.format(new Date(iso))}</time>;
}
