import { legalDocumentPage } from "~/content/content.server";
import { languageContext } from "~/request-context";
import { LegalDocumentPage } from "~/content/legal-document-page";
import type { Route } from "./+types/about";

export async function loader({ context }: Route.LoaderArgs) {
  return { document: await legalDocumentPage("about", context.get(languageContext)) };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentPage document={loaderData.document} fallbackTitle="public.legal.about" />;
}
