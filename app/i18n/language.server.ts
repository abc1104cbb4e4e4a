import { config } from "~/config.server";
import { findLanguage } from "./languages";
import { chooseLanguage, LANGUAGE_COOKIE, type LanguageChoice, type LanguageSignals } from "./negotiate";
import { offeredLanguages } from "./offered.server";

/** The language of a request, and what to keep when the person chose one (`?lang=`). */
export async function requestLanguage(request: Request, accountLanguage: string | null | undefined): Promise<LanguageChoice & { offered: string[] }> {
  return headersLanguage({
    query: new URL(request.url).searchParams.get("lang"),
    cookieHeader: request.headers.get("Cookie"),
    account: accountLanguage,
    acceptLanguage: request.headers.get("Accept-Language"),
  });
}

/** The language a request's headers ask for, where no Fetch API request is at hand (the viewer's Express route). */
export async function headersLanguage({ cookieHeader, ...signals }: Omit<LanguageSignals, "cookie"> & { cookieHeader: string | null | undefined }) {
  const offered = await offeredLanguages();
  const cookie = new RegExp(`(?:^|;\\s*)${LANGUAGE_COOKIE}=([^;]*)`).exec(cookieHeader ?? "")?.[1];
  return { ...chooseLanguage({ ...signals, cookie: cookie ?? null }, offered, { pseudo: config().PSEUDO_LANGUAGE }), offered };
}

/** The cookie that keeps a choice of language on this browser for a year. */
export function languageCookie(language: string): string {
  const secure = config().isHttps ? "; Secure" : "";
  return `${LANGUAGE_COOKIE}=${encodeURIComponent(language)}; Path=/; Max-Age=31536000; SameSite=Lax; HttpOnly${secure}`;
}

/** The switcher's links: the same page in each offered language (its other query parameters kept). */
export function languageLinks(request: Request, offered: readonly string[], current: string) {
  const url = new URL(request.url);
  return offered.flatMap((code) => {
    const language = findLanguage(code);
    if (!language) return [];
    const target = new URLSearchParams(url.searchParams);
    target.set("lang", code);
    return [{ code, name: language.name, href: `${url.pathname}?${target}`, current: code === current }];
  });
}
