import { gzipSync } from "node:zlib";
import express from "express";
import { clearSessionCookie } from "~/auth/session.server";
import { renderViewerDocument, renderViewerFragment } from "~/viewer/viewer-document";
import { messageRef } from "~/i18n/translator";
import { loadViewerRequest, signedOut, viewerError, pressViewerButton, showViewer, viewerInterviewOf, type ViewerReply } from "~/viewer/viewer-request.server";
import { keepForSignIn } from "~/expiry/keep.server";
import { postedBody } from "./body-policy";
import { logger } from "~/observability/log.server";

const log = logger("viewer");

/**
 * The interview viewer (`/viewer`), served by Express ahead of React Router (and of the compression
 * middleware: it compresses its own pages): it is the busiest page of the application and needs none of the
 * router's document, data or hydration machinery (docs/decisions/0011-viewer-outside-the-router.md).
 */
export const viewer = express.Router();

// GET answers HEAD too; other methods go on to the router, which has no such page.
viewer.route("/viewer").get(serveViewer).post(serveViewer);

/**
 * The header the frame's script sends with its fetch (public/scripts/viewer.js): it swaps the page that comes
 * back into the frame, so a step is answered with the next page and no redirect, as a fragment
 * (docs/decisions/0036-one-round-trip-per-step.md).
 */
const VIEWER_FETCH_HEADER = "viewer-fetch";

async function serveViewer(req: express.Request, res: express.Response) {
  const fetched = req.get(VIEWER_FETCH_HEADER) === "1";
  let personLanguage: (() => Promise<string>) | undefined;
  try {
    const url = new URL(req.originalUrl, "http://viewer");
    const headers = { cookie: req.get("cookie") ?? null, acceptLanguage: req.get("accept-language") ?? null };
    const { stale, expiredUserId, request } = await loadViewerRequest(headers, url, fetched || req.get("sec-fetch-dest") === "iframe", fetched);
    personLanguage = request.personLanguage;
    if (stale) {
      // An expired or revoked session is cleared and the person sent to / (docs/decisions/0004-accounts.md); the
      // frame's script, which shows what comes back in the frame, is told to sign in instead.
      res.set("Set-Cookie", await clearSessionCookie());
      // A page's form posted after the session expired is kept for its person, who signs in again and comes back
      // to the interview page with what they typed saved (docs/decisions/0051-session-expiry-loses-nothing.md).
      const place = req.method === "POST" && expiredUserId ? viewerInterviewOf(url) : null;
      const signIn = place && (await keepForSignIn(expiredUserId!, "interview", place.hostPath, place.interviewId, readForm(res)));
      if (signIn) {
        if (fetched) return send(req, res, signedOut(await personLanguage?.(), signIn), true);
        return void res.status(302).location(signIn).end();
      }
      if (fetched) return send(req, res, signedOut(await personLanguage?.()), true);
      return void res.status(302).location("/").end();
    }
    let reply: ViewerReply;
    if (req.method === "POST") {
      const form = readForm(res);
      reply = form ? await pressViewerButton(request, form) : viewerError(400, null, messageRef("viewer.error.unreadable"), await personLanguage?.());
    } else {
      reply = await showViewer(request);
    }
    send(req, res, reply, fetched);
  } catch (error) {
    log.error("a viewer request failed", { err: error });
    if (res.headersSent) return void res.end();
    // In the person's language when it can still be read (the failure may be the database's): else English.
    const language = await personLanguage?.().catch(() => undefined);
    send(req, res, viewerError(500, null, undefined, language), fetched);
  }
}

function send(req: express.Request, res: express.Response, reply: ViewerReply, fetched: boolean) {
  if (reply.setCookie) res.append("Set-Cookie", reply.setCookie);
  if ("location" in reply) return void res.status(302).location(reply.location).end();
  const html = fetched ? renderViewerFragment(reply.view) : renderViewerDocument(reply.view, String(res.locals.cspNonce ?? ""));
  // The page is complete before it is sent, so it is compressed in one call: a compression stream per
  // response (the compression middleware's way) costs several times more CPU for pages this small.
  const gzip = req.acceptsEncodings("gzip", "identity") === "gzip";
  const body = gzip ? gzipSync(html) : Buffer.from(html);
  res.status(reply.status);
  res.set({ "Content-Type": "text/html; charset=utf-8", "Content-Length": String(body.length), Vary: "Accept-Encoding" });
  // A fragment shares its address with the page's whole document: never keep it where a load of that address
  // (the frame going back through its history) could find it.
  if (fetched) res.set("Cache-Control", "no-store");
  if (gzip) res.set("Content-Encoding", "gzip");
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * The posted form, read at the edge within the limits (server/body-policy.ts): URL-encoded (every page without
 * an upload) from its bytes, multipart already parsed as it streamed.
 */
function readForm(res: express.Response): FormData | null {
  const body = postedBody(res);
  if (body?.kind === "multipart") return body.form;
  if (body?.kind !== "urlencoded") return null;
  const form = new FormData();
  for (const [name, value] of new URLSearchParams(body.bytes.toString("utf8"))) form.append(name, value);
  return form;
}
