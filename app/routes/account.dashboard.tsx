import { requireUser } from "~/auth/session.server";
import { metaTranslator } from "~/i18n/meta";
import { useT } from "~/i18n/react";
import type { MessageKey } from "~/i18n/translator";
import { Breadcrumb } from "~/ui/breadcrumb";
import { fullName } from "~/ui/header";
import { pageTitle } from "~/ui/page-title";
import type { Route } from "./+types/account.dashboard";

export const meta: Route.MetaFunction = ({ matches }) => {
  const t = metaTranslator(matches);
  return [{ title: pageTitle(t.t("account.page.yourAccount"), false, t) }];
};

export function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { name: fullName(user) };
}

const tiles: { title: MessageKey; description: MessageKey; href: string }[] = [
  { title: "account.dashboard.interviews", description: "account.dashboard.interviewsHint", href: "/account/interview" },
  { title: "account.dashboard.editProfile", description: "account.dashboard.editProfileHint", href: "/account/edit-profile" },
  { title: "account.dashboard.changePassword", description: "account.dashboard.changePasswordHint", href: "/account/change-password" },
  { title: "account.dashboard.recoveryCodes", description: "account.dashboard.recoveryCodesHint", href: "/account/recovery-codes" },
  { title: "account.dashboard.myData", description: "account.dashboard.myDataHint", href: "/account/my-data" },
  { title: "account.dashboard.deleteAccount", description: "account.dashboard.deleteAccountHint", href: "/account/delete-account" },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useT();
  return (
    <div className="page">
      <Breadcrumb crumbs={[{ label: t("account.page.home"), href: "/" }, { label: t("account.page.yourAccount") }]} />
      <h1>{t("header.welcome", { name: loaderData.name })}</h1>
      <p>{t("account.dashboard.choose")}</p>
      <ul className="tiles">
        {tiles.map((tile) => (
          <li key={tile.href} className="tile">
            <a className="tile__link" href={tile.href}>
              <span className="tile__title">{t(tile.title)}</span>
              <span className="tile__description">{t(tile.description)}</span>
            </a>
          </li>
        ))}
        <li className="tile">
          <form method="post" action="/auth/sign-out" className="tile__form">
            <button type="submit" className="tile__link tile__button">
              <span className="tile__title">{t("account.dashboard.signOut")}</span>
              <span className="tile__description">{t("account.dashboard.signOutHint")}</span>
            </button>
          </form>
        </li>
      </ul>
    </div>
  );
}
