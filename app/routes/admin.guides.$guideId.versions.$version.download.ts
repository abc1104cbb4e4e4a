import { guideFromParams } from "~/administration/guides.server";
import { contentDisposition } from "~/documents/documents.server";
import { guideVersionZip } from "~/guides/import.server";
import { notFound } from "~/http.server";
import type { Route } from "./+types/admin.guides.$guideId.versions.$version.download";

/** A guide version as a zip (Guide.json or Guide.xml and its files), which the upload form reads back. */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { guideId, version } = guideFromParams(request, params);
  const zip = await guideVersionZip({ guideId, version: version! });
  if (!zip) notFound(request);
  return new Response(Buffer.from(zip), {
    headers: {
      "Content-Type": "application/zip",
      "Content-Disposition": contentDisposition(`${guideId}-version-${version}.zip`),
      "Cache-Control": "private, no-store",
    },
  });
}
