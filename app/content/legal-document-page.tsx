import { useT } from "~/i18n/react";
import type { MessageKey } from "~/i18n/translator";
import { Breadcrumb } from "~/ui/breadcrumb";
import { Prose } from "~/ui/markdown";
import { pageTitle } from "~/ui/page-title";
import { theirs } from "./language";
import { NotYetTranslated } from "./not-yet-translated";

/** About, terms and conditions, privacy policies: a "Home" crumb, the document's name and its body. */
export function LegalDocumentPage({
  document,
  fallbackTitle,
}: {
  document: { name: string; html: string; lang: { name: string; content: string } } | null;
  fallbackTitle: MessageKey;
}) {
  const t = useT();
  // The document's name is the organisation's; without a document, the page's own name is ours.
  const title = document?.name || t.t(fallbackTitle);
  const named = document?.name ? theirs(t, document.lang.name) : {};
  return (
    <div className="page">
      <title>{pageTitle(title, false, t)}</title>
      <Breadcrumb crumbs={[{ label: t.t("public.crumb.home"), href: "/" }, { label: title, ...named }]} />
      <article className="legal-document">
        {document ? <NotYetTranslated lang={document.lang.content} /> : null}
        <h1 {...named}>{title}</h1>
        {document ? <Prose html={document.html} {...theirs(t, document.lang.content)} /> : null}
      </article>
    </div>
  );
}
