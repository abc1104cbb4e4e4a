import { authMessages } from "./schemas";

/** Why an emailed link no longer works, as its page says it. */
export type LinkProblemKind = "expired" | "used" | "unknown";

export const linkProblemKinds: readonly LinkProblemKind[] = ["expired", "used", "unknown"];

export function isLinkProblemKind(value: unknown): value is LinkProblemKind {
  return typeof value === "string" && (linkProblemKinds as readonly string[]).includes(value);
}

const NEW_LINK = "You can receive a new link by clicking the button below.";

/**
 * The heading and text of the page a broken link leads to, for the sign-up link (7 days) and the reset link
 * (1 hour). The expired sign-up text is the product's own (AU03); the others follow its words.
 */
export function linkProblemText(flow: "sign-up" | "reset-password", kind: LinkProblemKind): { heading: string; text: string } {
  const validity = flow === "sign-up" ? "This link will expire in 7 days." : "This link will expire in 1 hour.";
  switch (kind) {
    case "expired":
      return {
        heading: "This link has expired",
        text: flow === "sign-up" ? authMessages.expiredLink : `This link has expired. ${NEW_LINK} ${validity}`,
      };
    case "used":
      return {
        heading: "This link has already been used",
        // A used sign-up link has usually set the password already; a new link for that account resets it.
        text:
          flow === "sign-up"
            ? `This link has already been used, or a newer link was sent after it. If you have chosen your password, sign in. Otherwise ${lowerFirst(NEW_LINK)}`
            : `This link has already been used, or a newer link was sent after it. ${NEW_LINK} ${validity}`,
      };
    case "unknown":
      return {
        heading: "This link is not valid",
        text: `We do not recognise this link: it may be incomplete, or too old. ${NEW_LINK} ${validity}`,
      };
  }
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
