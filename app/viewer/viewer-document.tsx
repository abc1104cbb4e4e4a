import { renderToString } from "react-dom/server";
import { I18nProvider } from "~/i18n/react";
import { type Translator, translator } from "~/i18n/translator";
import { DocumentMeta, documentLinks } from "~/ui/document-head";
import { QuickExitScript } from "~/ui/quick-exit";
import { ViewerOutcome } from "./viewer-outcome";
import { ViewerPageView } from "./viewer-page";
import { ViewerReview } from "./viewer-review";
import type { ViewerView } from "./viewer-request.server";

/** The translator of the viewer's own words: the guide's language (English when the guide is not known). */
export function viewerTranslator(view: ViewerView): Translator {
  return translator(view.language ?? "en");
}

/**
 * The `lang` and `dir` of the viewer's own words, for a page that shows the viewer's page inside its own (the
 * interview page's copy, whose page may be in another language than the guide's).
 */
export function viewerLang(view: ViewerView): { lang: string; dir: "ltr" | "rtl" } {
  const t = viewerTranslator(view);
  return { lang: t.lang, dir: t.dir };
}

function documentTitle(view: ViewerView, t: Translator): string {
  const interview = t.t("viewer.title.interview");
  return "documentTitle" in view ? view.documentTitle : view.title ? `${view.title} | ${interview}` : interview;
}

/**
 * What the viewer shows of a view: a page, "Check your answers", or an outcome, its own words in the guide's
 * language; its first element carries that language's `lang` and `dir`, inside the frame's document and inside
 * the interview page (whose own language may differ).
 */
export function ViewerContent({ view }: { view: ViewerView }) {
  const t = viewerTranslator(view);
  return (
    <I18nProvider value={t}>
      {"outcome" in view ? (
        <ViewerOutcome title={view.title ?? t.t("viewer.title.interview")} outcome={view.outcome} headingLevel={view.headingLevel} />
      ) : "review" in view ? (
        <ViewerReview {...view} />
      ) : (
        <ViewerPageView {...view} />
      )}
    </I18nProvider>
  );
}

/**
 * The viewer's whole HTML document. It lives in the interview page's frame: no site header or footer, no
 * hydration, only its message layer script (docs/decisions/0011-viewer-outside-the-router.md).
 */
export function renderViewerDocument(view: ViewerView, nonce: string): string {
  const t = viewerTranslator(view);
  return (
    "<!DOCTYPE html>" +
    renderToString(
      <html lang={t.lang} dir={t.dir}>
        <head>
          <DocumentMeta />
          <title>{documentTitle(view, t)}</title>
          {documentLinks.map((link) => (
            <link key={link.rel} {...link} />
          ))}
        </head>
        <body className="bare">
          <main id="main-content" tabIndex={-1} aria-label={t.t("viewer.title.interview")}>
            <ViewerContent view={view} />
          </main>
          <script src="/scripts/viewer.js" nonce={nonce} defer />
          {"sensitive" in view && view.sensitive ? <QuickExitScript nonce={nonce} /> : null}
        </body>
      </html>,
    )
  );
}

/**
 * What the frame's script asks for with fetch (a step in one round trip): the document's title and what its
 * `<main>` holds, the same markup as the whole document's, which the script puts in place of the page it shows
 * (docs/decisions/0036-one-round-trip-per-step.md).
 */
export function renderViewerFragment(view: ViewerView): string {
  return renderToString(
    <>
      <title>{documentTitle(view, viewerTranslator(view))}</title>
      <ViewerContent view={view} />
    </>,
  );
}
