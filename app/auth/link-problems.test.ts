import { describe, expect, it } from "vitest";
import { translator } from "~/i18n/translator";
import { isLinkProblemKind, linkProblemText as keysOf, type LinkProblemKind } from "./link-problems";

/** The page's words in English. */
function linkProblemText(flow: "sign-up" | "reset-password", kind: LinkProblemKind) {
  const { heading, text } = keysOf(flow, kind);
  const t = translator("en");
  return { heading: t.t(heading), text: t.t(text) };
}

describe("pages of links that no longer work", () => {
  it("use the product's expired-link text for sign-up, and its words for the rest", () => {
    expect(linkProblemText("sign-up", "expired")).toEqual({
      heading: "This link has expired",
      text: "This link has expired. You can receive a new link by clicking the button below. This link will expire in 7 days.",
    });
    expect(linkProblemText("reset-password", "expired").text).toBe(
      "This link has expired. You can receive a new link by clicking the button below. This link will expire in 1 hour.",
    );
    expect(linkProblemText("reset-password", "used")).toEqual({
      heading: "This link has already been used",
      text: "This link has already been used, or a newer link was sent after it. You can receive a new link by clicking the button below. This link will expire in 1 hour.",
    });
    // A used sign-up link's new link may be a reset link (1 hour): no validity is promised.
    expect(linkProblemText("sign-up", "used").text).toBe(
      "This link has already been used, or a newer link was sent after it. If you have chosen your password, sign in. Otherwise you can receive a new link by clicking the button below.",
    );
    expect(linkProblemText("sign-up", "unknown").heading).toBe("This link is not valid");
    expect(linkProblemText("sign-up", "unknown").text).toMatch(/This link will expire in 7 days\.$/);
  });

  it("accept only the three kinds from a query string", () => {
    expect(["expired", "used", "unknown"].every(isLinkProblemKind)).toBe(true);
    for (const other of [null, "", "invalid", "EXPIRED", "not-verified", ["used"]]) expect(isLinkProblemKind(other)).toBe(false);
  });
});
