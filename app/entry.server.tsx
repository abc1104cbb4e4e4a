import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { renderToPipeableStream } from "react-dom/server";
import { type EntryContext, type HandleErrorFunction, type RouterContextProvider, ServerRouter, isRouteErrorResponse } from "react-router";
import { I18nProvider } from "./i18n/react";
import { translator } from "./i18n/translator";
import { languageContext, nonceContext } from "./request-context";
import { refusalLine } from "./security/request-guard.server";
import { NonceProvider } from "./ui/nonce";
import { logger } from "./observability/log.server";

const log = logger("pages");

export const streamTimeout = 5_000;

/**
 * Errors the router reports. Its own refusals (a POST to a page without an action: 405; an unknown route
 * asked for data: 404) are expected and logged in one line; anything else is logged whole, as by default.
 */
export const handleError: HandleErrorFunction = (error, { request }) => {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) {
    const cause = (error as { error?: unknown }).error;
    log.warn(refusalLine({ method: request.method, path: new URL(request.url).pathname }, error.status, cause instanceof Error ? cause.message : error.statusText));
    return;
  }
  // The router's own check that a POST's Origin matches its address (the edge checks it first: server/app.ts).
  if (error instanceof Error && error.message.endsWith("Aborting the action.")) {
    log.warn(refusalLine({ method: request.method, path: new URL(request.url).pathname }, 400, error.message));
    return;
  }
  log.error("a page failed", { err: isRouteErrorResponse(error) && (error as { error?: unknown }).error ? (error as { error?: unknown }).error : error });
};

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.get(nonceContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    // Pages are sent whole (onAllReady): most ship no script, so streamed Suspense content could never arrive.
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <I18nProvider value={translator(loadContext.get(languageContext))}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </I18nProvider>
      </NonceProvider>,
      {
        nonce,
        onAllReady() {
          shellRendered = true;
          const body = new PassThrough({
            final(callback) {
              clearTimeout(timeoutId);
              timeoutId = undefined;
              callback();
            },
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) log.error("a page failed while it was sent", { err: error });
        },
      },
    );
  });
}
