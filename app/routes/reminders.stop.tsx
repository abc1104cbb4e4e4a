import { data, redirect } from "react-router";
import { useT } from "~/i18n/react";
import { stopLinkState, stopReminders } from "~/reminders/reminders.server";
import { PageTitle } from "~/ui/page-title";
import type { Route } from "./+types/reminders.stop";

// The emailed link to stop reminders (?code=…): no sign-in needed. Opening it changes nothing (mail scanners open
// links); the page's button stops them (docs/decisions/0050-reminders.md), as does a mail program's one-click
// unsubscribe (RFC 8058: a POST of "List-Unsubscribe=One-Click" to the link itself, the code in its address).

const codeOf = (value: unknown) => (typeof value === "string" ? value.slice(0, 100) : "");

export async function loader({ request }: Route.LoaderArgs) {
  const code = codeOf(new URL(request.url).searchParams.get("code"));
  const state = await stopLinkState(code);
  return data({ state, code: state === "active" ? code : "" }, { status: state === "unknown" ? 404 : 200 });
}

export async function action({ request }: Route.ActionArgs) {
  const code = codeOf((await request.formData()).get("code") ?? new URL(request.url).searchParams.get("code"));
  if (!(await stopReminders(code, new Date()))) return data({ state: "unknown" as const }, { status: 404 });
  return redirect(`/reminders/stop?${new URLSearchParams({ code })}`, 303);
}

const titles = { unknown: "reminders.unknown.title", active: "reminders.stop.title", stopped: "reminders.stopped.title" } as const;

export default function StopReminders({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT();
  const state = actionData?.state ?? loaderData.state;
  const title = t.t(titles[state]);
  return (
    <div className="page page--narrow">
      <PageTitle title={title} />
      <h1>{title}</h1>
      {state === "unknown" ? <p>{t.t("reminders.unknown.body")}</p> : null}
      {state === "active" ? (
        <form method="post" className="form">
          <p>{t.t("reminders.stop.intro")}</p>
          <input type="hidden" name="code" value={loaderData.code} />
          <button type="submit" className="button">
            {t.t("reminders.stop.button")}
          </button>
        </form>
      ) : null}
      {state === "stopped" ? (
        <div className="notice notice--success" role="status">
          <p>{t.t("reminders.stopped.body")}</p>
          <p>
            <a className="button button--small" href="/auth/sign-in">
              {t.t("reminders.stopped.signIn")}
            </a>
          </p>
        </div>
      ) : null}
    </div>
  );
}
