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
  getLoadContext,
}: {
  build: ServerBuild;
  mode: string;
  getLoadContext: (req: express.Request, res: express.Response) => RouterContextProvider;
}): express.RequestHandler {
  const handleRequest = createRouterHandler(build, mode);
  return async (req, res, next) => {
    try {
      const request = routerRequest(req, res);
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

function routerRequest(req: express.Request, res: express.Response): Request | null {
  const [, forwardedPort] = req.app.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [Number.parseInt(forwardedPort ?? "", 10), Number.parseInt(hostPort ?? "", 10)].find(Number.isSafeInteger) ?? "";
  const hostname = (req.hostname ?? "").split(/[\\/?#@]/)[0] || "localhost";
  let url: URL;
  try {
    url = new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);
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
