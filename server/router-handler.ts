import { writeReadableStreamToWritable } from "@react-router/node";
import type express from "express";
import { type RouterContextProvider, type ServerBuild, createRequestHandler as createRouterHandler } from "react-router";
import { unreadable } from "~/security/request-guard.server";
import { postedBody, refuse } from "./body-policy";

/**
 * Hands a request to React Router: what `@react-router/express`'s handler does (same URL, headers, abort
 * signal and response writing), except that a POST's body is the one the edge has already read within the
 * limits (server/body-policy.ts), never the raw stream, so every route's `request.formData()` reads a bounded,
 * well-formed body (docs/decisions/0014-request-limits.md).
 */
export function routerHandler({
  build,
  mode,
  publicOrigin,
  getLoadContext,
}: {
  build: ServerBuild;
  mode: string;
  /** PUBLIC_ORIGIN: the address people use. */
  publicOrigin: string;
  getLoadContext: (req: express.Request, res: express.Response) => RouterContextProvider;
}): express.RequestHandler {
  const handleRequest = createRouterHandler(build, mode);
  return async (req, res, next) => {
    try {
      const request = routerRequest(req, res, publicOrigin);
      if (!request) return refuse(req, res, unreadable("address not understood"));
      const response = await handleRequest(request, getLoadContext(req, res));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function routerHeaders(requestHeaders: express.Request["headers"]): Headers {
  const headers = new Headers();
  for (const [key, values] of Object.entries(requestHeaders)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  return headers;
}

/**
 * The origin of the URL the router sees. A form posted from the public origin (PUBLIC_ORIGIN) is given that
 * origin, which the edge has already checked it against (app/security/request-guard.server.ts): behind a proxy
 * that terminates TLS and that TRUST_PROXY does not name, the protocol and host of the connection are the
 * proxy's, and the router's own Origin check would refuse every form. Otherwise it is the request's own, with
 * the X-Forwarded-Proto and X-Forwarded-Host of a trusted proxy only (Express's req.protocol and req.host).
 */
function routerOrigin(req: express.Request, publicOrigin: string): string {
  if (req.method === "POST" && req.get("origin") === publicOrigin) return publicOrigin;
  const host = req.host ?? "";
  const hostname = (req.hostname ?? "").split(/[\\/?#@]/)[0] || "localhost";
  // req.host is the hostname, then ":port" when the (trusted) header has one.
  const port = Number.parseInt(host.slice((req.hostname ?? "").length + 1), 10);
  return `${req.protocol}://${hostname}${Number.isSafeInteger(port) ? `:${port}` : ""}`;
}

function routerRequest(req: express.Request, res: express.Response, publicOrigin: string): Request | null {
  let url: URL;
  try {
    url = new URL(`${routerOrigin(req, publicOrigin)}${req.originalUrl}`);
  } catch {
    return null;
  }
  let controller: AbortController | null = new AbortController();
  const init: RequestInit & { duplex?: "half" } = { method: req.method, headers: routerHeaders(req.headers), signal: controller.signal };
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  if (req.method === "POST") {
    const body = postedBody(res);
    if (!body) return null;
    if (body.kind === "multipart") {
      // The parsed form, sent again: its new Content-Type (with its own boundary) is set from it.
      (init.headers as Headers).delete("content-type");
      (init.headers as Headers).delete("content-length");
      init.body = body.form;
    } else {
      init.body = body.bytes as Uint8Array<ArrayBuffer>;
    }
  }
  return new Request(url.href, init);
}

async function sendResponse(res: express.Response, response: Response): Promise<void> {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  for (const [key, value] of response.headers.entries()) res.append(key, value);
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) return void res.end();
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
