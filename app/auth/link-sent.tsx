import { Form } from "react-router";
import { ErrorSummary } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";

/**
 * "Check your email": what was sent where, and a button that sends it again (a plain form). `problem`: why
 * sending again was refused (a limit), shown on the page.
 */
export function LinkSentPage({ problem, children }: { problem?: string | null; children: React.ReactNode }) {
  return (
    <div className="page page--narrow">
      <PageTitle title="Check your email" errors={Boolean(problem)} />
      <h1>Check your email</h1>
      <ErrorSummary errors={[]} formErrors={problem ? [problem] : []} />
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
