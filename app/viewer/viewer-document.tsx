import { renderToString } from "react-dom/server";
import { DocumentMeta, documentLinks } from "~/ui/document-head";
import { QuickExitScript } from "~/ui/quick-exit";
import { ViewerOutcome } from "./viewer-outcome";
import { ViewerPageView } from "./viewer-page";
import { ViewerReview } from "./viewer-review";
import type { ViewerView } from "./viewer-request.server";

function documentTitle(view: ViewerView): string {
  return "documentTitle" in view ? view.documentTitle : view.title ? `${view.title} | Interview` : "Interview";
}

/** What the viewer shows of a view: a page, "Check your answers", or an outcome. */
export function ViewerContent({ view }: { view: ViewerView }) {
  if ("outcome" in view) return <ViewerOutcome title={view.title ?? "Interview"} outcome={view.outcome} headingLevel={view.headingLevel} />;
  return "review" in view ? <ViewerReview {...view} /> : <ViewerPageView {...view} />;
}

/**
 * The viewer's whole HTML document. It lives in the interview page's frame: no site header or footer, no
 * hydration, only its message layer script (docs/decisions/0011-viewer-outside-the-router.md).
 */
export function renderViewerDocument(view: ViewerView, nonce: string): string {
  return (
    "<!DOCTYPE html>" +
    renderToString(
      <html lang="en">
        <head>
          <DocumentMeta />
          <title>{documentTitle(view)}</title>
          {documentLinks.map((link) => (
            <link key={link.rel} {...link} />
          ))}
        </head>
        <body className="bare">
          <main id="main-content" tabIndex={-1} aria-label="Interview">
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
      <title>{documentTitle(view)}</title>
      <ViewerContent view={view} />
    </>,
  );
}
