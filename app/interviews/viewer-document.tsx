import { renderToString } from "react-dom/server";
import stylesheet from "~/styles/app.css?url";
import { ViewerOutcome } from "./viewer-outcome";
import { ViewerPageView } from "./viewer-page";
import type { ViewerView } from "./viewer-request.server";

/**
 * The viewer's whole HTML document. It lives in the interview page's frame: no site header or footer, no
 * hydration, only its message layer script (docs/decisions/0011-viewer-outside-the-router.md).
 */
export function renderViewerDocument(view: ViewerView, nonce: string): string {
  const title = view.title === "Interview" ? view.title : `${view.title} | Interview`;
  return (
    "<!DOCTYPE html>" +
    renderToString(
      <html lang="en">
        <head>
          <meta charSet="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="color-scheme" content="light" />
          <title>{title}</title>
          <link rel="stylesheet" href={stylesheet} />
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        </head>
        <body className="bare">
          <main id="main-content" tabIndex={-1} aria-label="Interview">
            {"outcome" in view ? <ViewerOutcome title={view.title} outcome={view.outcome} /> : <ViewerPageView {...view} />}
          </main>
          <script src="/scripts/viewer.js" nonce={nonce} defer />
        </body>
      </html>,
    )
  );
}
