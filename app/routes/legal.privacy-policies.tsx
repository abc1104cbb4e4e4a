import { legalDocumentPage } from "~/content/content.server";
import { languageContext } from "~/request-context";
import { LegalDocumentPage } from "~/content/legal-document-page";
import type { Route } from "./+types/legal.privacy-policies";

export async function loader({ context }: Route.LoaderArgs) {
  return { document: await legalDocumentPage("privacy", context.get(languageContext)) };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentPage document={loaderData.document} fallbackTitle="public.legal.privacy" />;
}
