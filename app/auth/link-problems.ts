import type { MessageKey } from "~/i18n/translator";

/** Why an emailed link no longer works, as its page says it. */
export type LinkProblemKind = "expired" | "used" | "unknown";

export const linkProblemKinds: readonly LinkProblemKind[] = ["expired", "used", "unknown"];

export function isLinkProblemKind(value: unknown): value is LinkProblemKind {
  return typeof value === "string" && (linkProblemKinds as readonly string[]).includes(value);
}

/**
 * The heading and text of the page a broken link leads to, for the sign-up link (7 days) and the reset link
 * (1 hour), as keys of the catalogue. The expired sign-up text is the product's own (AU03); the others follow its
 * words. A used sign-up link's new link may be a reset link (1 hour): no validity is promised there.
 */
export function linkProblemText(flow: "sign-up" | "reset-password", kind: LinkProblemKind): { heading: MessageKey; text: MessageKey } {
  const signUp = flow === "sign-up";
  switch (kind) {
    case "expired":
      return { heading: "auth.linkProblem.expiredTitle", text: signUp ? "auth.linkProblem.signUpExpired" : "auth.linkProblem.resetExpired" };
    case "used":
      return { heading: "auth.linkProblem.usedTitle", text: signUp ? "auth.linkProblem.signUpUsed" : "auth.linkProblem.resetUsed" };
    case "unknown":
      return { heading: "auth.linkProblem.unknownTitle", text: signUp ? "auth.linkProblem.signUpUnknown" : "auth.linkProblem.resetUnknown" };
  }
}
