/** What the viewer shows when the interview leaves the page flow: ended, saved and signed out, an error… */
export type OutcomeView =
  | { kind: "success" | "assemble" | "assemble-success" | "complete"; href: string }
  | { kind: "save-logout" }
  | { kind: "fail"; url?: string }
  | { kind: "message"; message: string }
  | { kind: "preview"; target: string; message?: string; url?: string }
  | { kind: "signed-out" }
  | { kind: "error"; message: string };

const previewSays: Record<string, string> = {
  EXIT: "In a real interview this button saves the answers, signs the person out and goes to the home page.",
  SUCCESS: "In a real interview this button saves the answers and marks the interview Completed.",
  ASSEMBLE: "In a real interview this button marks the interview Completed and assembles its documents.",
  "ASSEMBLE-SUCCESS": "In a real interview this button marks the interview Completed and assembles its documents.",
  FAIL: "In a real interview this button ends the interview: the person does not qualify.",
  MESSAGE: "In a real interview this button ends the interview with a message.",
};

/**
 * The page carries its outcome in data attributes: the message layer (viewer.js) tells the host page; without
 * script, the links move the whole window. `headingLevel` 2 when the interview page shows it under its own h1.
 */
export function ViewerOutcome({ title, outcome, headingLevel = 1 }: { title: string; outcome: OutcomeView; headingLevel?: 1 | 2 }) {
  const Heading = headingLevel === 2 ? "h2" : "h1";
  const message = (() => {
    switch (outcome.kind) {
      case "success":
      case "assemble":
      case "assemble-success":
      case "complete":
        return (
          <>
            <p>Your interview is complete and your answers are saved.</p>
            <p>
              <a className="button" href={outcome.href} target="_top">
                Continue
              </a>
            </p>
          </>
        );
      case "save-logout":
        return (
          <>
            <p>Your answers are saved and you are signed out. You can continue later from My interviews.</p>
            <p>
              <a className="button" href="/" target="_top">
                Go to homepage
              </a>
            </p>
          </>
        );
      case "fail":
        return (
          <>
            <p>Based on your answers, this interview cannot help you. Your answers are saved.</p>
            {outcome.url && /^https?:\/\//.test(outcome.url) ? (
              <p className="link-line">
                <a href={outcome.url} target="_blank" rel="noopener noreferrer">
                  Where to find help (opens in a new tab)
                </a>
              </p>
            ) : null}
          </>
        );
      case "message":
        return <p>{outcome.message}</p>;
      case "preview":
        return (
          <>
            <p>Preview: the {outcome.target} button was pressed. Nothing was saved.</p>
            <p>{previewSays[outcome.target] ?? ""}</p>
            {outcome.message ? <p>{outcome.message}</p> : null}
          </>
        );
      case "signed-out":
        return (
          <>
            <p>Please sign in to continue your interview.</p>
            <p>
              <a className="button" href="/auth/sign-in" target="_top">
                Sign in
              </a>
            </p>
          </>
        );
      case "error":
        return <p>{outcome.message} Your saved answers are kept. Please try again, or tell us through the Contact Us page.</p>;
    }
  })();
  return (
    <div className="viewer viewer-outcome" data-outcome={outcome.kind} data-href={"href" in outcome ? outcome.href : undefined}>
      <Heading className="viewer__title">{title}</Heading>
      <div role="status">{message}</div>
    </div>
  );
}
