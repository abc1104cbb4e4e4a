import { requireUser } from "~/auth/session.server";
import { Breadcrumb } from "~/ui/breadcrumb";
import { fullName } from "~/ui/header";
import type { Route } from "./+types/account.dashboard";

export function meta() {
  return [{ title: "Your account | Legal Self-Help" }];
}

export function loader({ context }: Route.LoaderArgs) {
  const user = requireUser(context);
  return { name: fullName(user) };
}

const tiles = [
  { title: "My interviews", description: "View my pending or completed interviews", href: "/account/interview" },
  { title: "Edit profile", description: "Edit my profile details", href: "/account/edit-profile" },
  { title: "Change password", description: "Change my password", href: "/account/change-password" },
  { title: "Recovery codes", description: "Make new recovery codes or set up a new authenticator", href: "/account/recovery-codes" },
  { title: "Download my data", description: "Download my profile, interviews, documents and files", href: "/account/my-data" },
  { title: "Delete my account", description: "Delete my account and everything in it", href: "/account/delete-account" },
];

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  return (
    <div className="page">
      <Breadcrumb crumbs={[{ label: "Home", href: "/" }, { label: "Your account" }]} />
      <h1>Welcome {loaderData.name}</h1>
      <p>Please choose one of the following options:</p>
      <ul className="tiles">
        {tiles.map((tile) => (
          <li key={tile.href} className="tile">
            <a className="tile__link" href={tile.href}>
              <span className="tile__title">{tile.title}</span>
              <span className="tile__description">{tile.description}</span>
            </a>
          </li>
        ))}
        <li className="tile">
          <form method="post" action="/auth/sign-out" className="tile__form">
            <button type="submit" className="tile__link tile__button">
              <span className="tile__title">Sign out</span>
              <span className="tile__description">Sign out of the product</span>
            </button>
          </form>
        </li>
      </ul>
    </div>
  );
}
