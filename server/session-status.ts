import express from "express";
import { sessionTimeLeft } from "~/auth/session.server";
import { logger } from "~/observability/log.server";

const log = logger("session");

/**
 * `GET /session/status`: how long the request's session has left without another request, as
 * `{ "secondsLeft": n }` (0: ended, or none). The sign-out warning's script asks it before it warns
 * (public/scripts/session-timeout.js). Answered here, ahead of the router, whose session middleware would count
 * the question as a request and keep the session alive for ever (docs/decisions/0051-session-expiry-loses-nothing.md).
 */
export const sessionStatus = express.Router();

sessionStatus.get("/session/status", async (req, res) => {
  res.set("Cache-Control", "no-store");
  try {
    const left = await sessionTimeLeft(req.get("cookie") ?? null);
    res.json({ secondsLeft: Math.floor(left / 1000) });
  } catch (error) {
    log.error("the session's status could not be read", { err: error });
    res.status(503).json({ secondsLeft: null });
  }
});
