import { Breadcrumb } from "~/ui/breadcrumb";
import { Prose } from "~/ui/markdown";

/** About, terms and conditions, privacy policies: a "Home" crumb, the document's name and its body. */
export function LegalDocumentPage({ document, fallbackTitle }: { document: { name: string; html: string } | null; fallbackTitle: string }) {
  const title = document?.name || fallbackTitle;
  return (
    <div className="page">
      <title>{`${title} | Legal Self-Help`}</title>
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, { label: title }]} />
      <article className="legal-document">
        <h1>{title}</h1>
        {document ? <Prose html={document.html} /> : null}
      </article>
    </div>
  );
}
