import { data } from "react-router";
import { AccountPage } from "~/account/account-page";
import { RateLimitError } from "~/auth/rate-limit.server";
import { requireUser } from "~/auth/session.server";
import { useT } from "~/i18n/react";
import { ErrorSummary } from "~/ui/form";
import type { Route } from "./+types/account.my-data";

// ?wait=N: the download (account.my-data.download.ts) was past its limit and sent the person back here.
export function loader({ request, context }: Route.LoaderArgs) {
  requireUser(context, request);
  const wait = new URL(request.url).searchParams.get("wait");
  if (!wait || !/^\d{1,3}$/.test(wait)) return { error: null };
  const minutes = Math.min(Math.max(Number(wait), 1), 60);
  return data({ error: new RateLimitError(minutes).ref }, { status: 429 });
}

export default function MyData({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <AccountPage title={t("account.myData.title")} errors={Boolean(loaderData.error)}>
      <ErrorSummary errors={[]} formErrors={loaderData.error ? [loaderData.error] : []} />
      <p>{t("account.myData.intro")}</p>
      <ul>
        <li>{t("account.myData.profile")}</li>
        <li>{t("account.myData.interviews")}</li>
        <li>{t("account.myData.documents")}</li>
        <li>{t("account.myData.files")}</li>
      </ul>
      <p>{t("account.myData.wait")}</p>
      <form method="post" action="/account/my-data/download" className="form">
        <button type="submit" className="button">
          {t("account.myData.submit")}
        </button>
      </form>
    </AccountPage>
  );
}
