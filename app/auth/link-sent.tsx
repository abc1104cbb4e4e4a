import { Form } from "react-router";

/** "Check your email": what was sent where, and a button that sends it again (a plain form). */
export function LinkSentPage({ children }: { children: React.ReactNode }) {
  return (
    <div className="page page--narrow">
      <h1>Check your email</h1>
      {children}
      <p>Did not receive it? Check your spam folder, or we can send it again.</p>
      <Form method="post">
        <button type="submit" className="button button--secondary">
          Send the link again
        </button>
      </Form>
    </div>
  );
}
