import { Form } from "react-router";
import { useT } from "~/i18n/react";
import { ErrorSummary } from "~/ui/form";
import { PageTitle } from "~/ui/page-title";

/**
 * "Check your email": what was sent where, and a button that sends it again (a plain form). `problem`: why
 * sending again was refused (a limit, a reference to the catalogue), shown on the page.
 */
export function LinkSentPage({ problem, children }: { problem?: string | null; children: React.ReactNode }) {
  const { t } = useT();
  return (
    <div className="page page--narrow">
      <PageTitle title={t("auth.linkSent.title")} errors={Boolean(problem)} />
      <h1>{t("auth.linkSent.title")}</h1>
      <ErrorSummary errors={[]} formErrors={problem ? [problem] : []} />
      {children}
      <p>{t("auth.linkSent.notReceived")}</p>
      <Form method="post">
        <button type="submit" className="button button--secondary">
          {t("auth.linkSent.resend")}
        </button>
      </Form>
    </div>
  );
}
