import { data } from "react-router";
import { writeFlowState } from "~/auth/flow-state.server";
import { requireFlowState } from "~/auth/resend.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/react";
import { pageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.reset-password.successful";

export const meta: Route.MetaFunction = ({ matches }) => {
  const t = metaTranslator(matches);
  return [{ title: pageTitle(t.t("auth.resetSuccessful.title"), false, t) }];
};

// Only straight after a reset (spec: "reachable only through a state flag"): the flag is used up here.
export async function loader({ request }: Route.LoaderArgs) {
  await requireFlowState(request, "passwordReset");
  return data(null, { headers: { "Set-Cookie": await writeFlowState({}) } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function ResetSuccessful() {
  const { t } = useT();
  return (
    <div className="page page--narrow">
      <h1>{t("auth.resetSuccessful.heading")}</h1>
      <p>{t("auth.resetSuccessful.text")}</p>
      <p className="button-row">
        <a className="button" href="/auth/sign-in">
          {t("auth.resetSuccessful.signIn")}
        </a>
      </p>
    </div>
  );
}
