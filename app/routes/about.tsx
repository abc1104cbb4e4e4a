import { getLegalDocument, readOrEmpty } from "~/content/content.server";
import { LegalDocumentPage } from "~/content/legal-document-page";
import { markdownToHtml } from "~/ui/markdown.server";
import type { Route } from "./+types/about";

export async function loader() {
  const document = await readOrEmpty("the about document", () => getLegalDocument("about"), null);
  return { document: document ? { name: document.name, html: markdownToHtml(document.content) } : null };
}

export default function Page({ loaderData }: Route.ComponentProps) {
  return <LegalDocumentPage document={loaderData.document} fallbackTitle="public.legal.about" />;
}
