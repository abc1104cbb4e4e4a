import { renderToString } from "react-dom/server";
import { DocumentMeta, documentLinks } from "~/ui/document-head";
import { QuickExitScript } from "~/ui/quick-exit";
import { ViewerOutcome } from "./viewer-outcome";
import { ViewerPageView } from "./viewer-page";
import { ViewerReview } from "./viewer-review";
import type { ViewerView } from "./viewer-request.server";

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
          <title>{"documentTitle" in view ? view.documentTitle : view.title ? `${view.title} | Interview` : "Interview"}</title>
          {documentLinks.map((link) => (
            <link key={link.rel} {...link} />
          ))}
        </head>
        <body className="bare">
          <main id="main-content" tabIndex={-1} aria-label="Interview">
            {"outcome" in view ? (
              <ViewerOutcome title={view.title ?? "Interview"} outcome={view.outcome} />
            ) : "review" in view ? (
              <ViewerReview {...view} />
            ) : (
              <ViewerPageView {...view} />
            )}
          </main>
          <script src="/scripts/viewer.js" nonce={nonce} defer />
          {"sensitive" in view && view.sensitive ? <QuickExitScript nonce={nonce} /> : null}
        </body>
      </html>,
    )
  );
}
