import { data } from "react-router";
import { writeFlowState } from "~/auth/flow-state.server";
import { requireFlowState } from "~/auth/resend.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/react";
import { pageTitle } from "~/ui/page-title";
import type { Route } from "./+types/auth.account-deleted";

export const meta: Route.MetaFunction = ({ matches }) => {
  const t = metaTranslator(matches);
  return [{ title: pageTitle(t.t("auth.deleted.title"), false, t) }];
};

// Only straight after a deletion, in the browser that did it: the flag is used up here.
export async function loader({ request }: Route.LoaderArgs) {
  await requireFlowState(request, "accountDeleted");
  return data(null, { headers: { "Set-Cookie": await writeFlowState({}) } });
}

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders;

export default function AccountDeleted() {
  const { t } = useT();
  return (
    <div className="page page--narrow">
      <h1>{t("auth.deleted.title")}</h1>
      <p>{t("auth.deleted.text")}</p>
      <p className="button-row">
        <a className="button" href="/">
          {t("auth.deleted.home")}
        </a>
      </p>
    </div>
  );
}
