import { data, redirect } from "react-router";
import { currentUser } from "~/auth/session.server";
import { getHomeContent, listCountries, readOrEmpty } from "~/content/content.server";
import { clearSavedNotice, savedInterview, savedNoticeMessage } from "~/interviews/saved-notice.server";
import { withReturn } from "~/auth/return-to";
import { parseId } from "~/http.server";
import { CountryAccordion } from "~/content/country-accordion";
import { theirs } from "~/content/language";
import { NotYetTranslated } from "~/content/not-yet-translated";
import { languageContext } from "~/request-context";
import { useT } from "~/i18n/react";
import { metaTranslator } from "~/i18n/meta";
import { pageTitle } from "~/ui/page-title";
import { Prose } from "~/ui/markdown";
import { markdownToHtml } from "~/ui/markdown.server";
import { askForReminder, type ReminderOffer, reminderOffer } from "~/reminders/reminders.server";
import { SavedReminder } from "~/reminders/saved-reminder";
import type { Route } from "./+types/home";

/** The interview a saved-answers notice names (its address ends with the interview's id), if it names one. */
const savedInterviewId = (saved: string) => saved.match(/\/interviews\/([0-9a-f-]{36})$/)?.[1] ?? null;

export async function loader({ request, context }: Route.LoaderArgs) {
  const language = context.get(languageContext);
  const [home, countries] = await Promise.all([
    readOrEmpty("the home page", () => getHomeContent(undefined, language), null),
    readOrEmpty("the countries", () => listCountries(undefined, language), []),
  ]);
  const requested = parseId(new URL(request.url).searchParams.get("country") ?? undefined);
  const openCountryId = countries.find((country) => country.id === requested)?.id ?? countries[0]?.id ?? null;
  const intro = home ? { headline: home.headline, subHeadline: home.subHeadline, bodyHtml: markdownToHtml(home.bodyCopy), lang: home.lang } : null;
  const saved = await savedInterview(request);
  // Signed in again, the person is back at their interview: the notice has done its work.
  if (saved && currentUser(context)) {
    return data({ home: intro, countries, openCountryId, savedNotice: null }, { headers: { "Set-Cookie": await clearSavedNotice() } });
  }
  const interviewId = saved ? savedInterviewId(saved) : null;
  // "Email me on … if I have not finished" (docs/decisions/0050-reminders.md): offered while the notice stands.
  const reminder: ReminderOffer = interviewId ? await readOrEmpty("the reminder", () => reminderOffer(interviewId), null) : null;
  const reminderNotSet = new URL(request.url).searchParams.get("reminder") === "not-set";
  const savedNotice = saved ? { message: savedNoticeMessage, signIn: withReturn("/auth/sign-in", saved), reminder, reminderNotSet, now: new Date().toISOString() } : null;
  return { home: intro, countries, openCountryId, savedNotice };
}

/**
 * Dismissing the saved-answers notice, or asking for a reminder of the interview it names: plain forms, so they
 * work without script. The notice's cookie (signed, set only by saving and leaving) is what allows the reminder:
 * the person has just been signed out, and the reminder only ever goes to the interview's owner.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  if (form.get("intent") === "remind-me") {
    const saved = await savedInterview(request);
    const interviewId = saved ? savedInterviewId(saved) : null;
    const asked = interviewId ? await askForReminder(interviewId, context.get(languageContext), new Date()) : null;
    return redirect(asked ? "/" : "/?reminder=not-set");
  }
  if (form.get("intent") !== "dismiss-saved-notice") return redirect("/");
  return redirect("/", { headers: { "Set-Cookie": await clearSavedNotice() } });
}

export function meta({ data, matches }: Route.MetaArgs) {
  const t = metaTranslator(matches);
  return [
    { title: data?.home?.headline ? pageTitle(data.home.headline, false, t) : t.t("site.name") },
    { name: "description", content: data?.home?.subHeadline ?? t.t("public.home.description") },
  ];
}

export default function Home({ loaderData }: Route.ComponentProps) {
  const { home, countries, openCountryId, savedNotice } = loaderData;
  const t = useT();
  return (
    <div className="page">
      {savedNotice ? (
        <div className="notice notice--success saved-notice" role="status">
          <p>{t.message(savedNotice.message)}</p>
          <SavedReminder reminder={savedNotice.reminder} notSet={savedNotice.reminderNotSet} now={savedNotice.now} />
          <div className="saved-notice__actions">
            <a className="button button--small" href={savedNotice.signIn}>
              {t.t("public.home.savedSignIn")}
            </a>
            <form method="post" action="/?index">
              <button type="submit" name="intent" value="dismiss-saved-notice" className="button button--secondary button--small">
                {t.t("public.home.savedDismiss")}
              </button>
            </form>
          </div>
        </div>
      ) : null}
      {home ? <NotYetTranslated lang={home.lang.bodyCopy} /> : null}
      <section className="intro" aria-labelledby="intro-title">
        {home?.headline ? (
          <h1 id="intro-title" {...theirs(t, home.lang.headline)}>
            {home.headline}
          </h1>
        ) : (
          <h1 id="intro-title">{t.t("site.name")}</h1>
        )}
        {home?.subHeadline ? (
          <p className="intro__sub" {...theirs(t, home.lang.subHeadline)}>
            {home.subHeadline}
          </p>
        ) : null}
        {home?.bodyHtml ? (
<Prose html={home.bodyHtml} {...theirs(t, home.lang.bodyCopy)} />
        ) : null}
      </section>
      <CountryAccordion countries={countries} openCountryId={openCountryId} />
    </div>
  );
}
