import { getLegalDocument, readOrEmpty } from "~/content/content.server";
import { LegalDocumentPage } from "~/content/legal-document-page";
import { markdownToHtml } from "~/ui/markdown.server";
import type { Route } from "./+types/legal.privacy-policies";

export async function loader() {
  const document = await readOrEmpty("the privacy document", () => getLegalDocument("privacy"), null);
  return { document: document ? { name: document.name, html: markdownToHtml(document.content) } : null };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentPage document={loaderData.document} fallbackTitle="public.legal.privacy" />;
}
