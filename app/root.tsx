import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useMatches,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import { setAccountLanguage } from "./auth/accounts.server";
import { sessionMiddleware } from "./auth/middleware.server";
import { setRequestRoute } from "./observability/log.server";
import { currentUser, sessionContext } from "./auth/session.server";
import { SessionTimeout } from "./ui/session-timeout";
import { languageCookie, languageLinks, requestLanguage } from "./i18n/language.server";
import { offeredLanguages } from "./i18n/offered.server";
import { refreshInterfaceOverrides } from "./i18n/overrides.server";
import { useT } from "./i18n/react";
import { languageContext } from "./request-context";
import { DocumentMeta, documentLinks } from "./ui/document-head";
import { ErrorPage, TooManyRequestsPage } from "./ui/error-page";
import { Footer } from "./ui/footer";
import { Header, type HeaderUser } from "./ui/header";
import { useNonce } from "./ui/nonce";
import { NotFound } from "./ui/not-found";
import type { NotFoundData, TooManyRequestsData } from "./http.server";
import { PageErrorMessage, ToastMessage } from "./ui/toast-message";
import { clearFlashHeader, hasFlash, readToast } from "./ui/toast.server";
export const links: Route.LinksFunction = () => documentLinks;

// A page that ends in the error boundary keeps the headers of what was thrown (a 429's Retry-After).
export const headers: Route.HeadersFunction = ({ errorHeaders, loaderHeaders }) => errorHeaders ?? loaderHeaders;

export const middleware: Route.MiddlewareFunction[] = [
  // The route pattern (/issues/:issueId), never the path, names the request in its log line and metrics.
  ({ pattern }, next) => {
    setRequestRoute(pattern.startsWith("/") ? pattern : `/${pattern}`);
    return next();
  },
  sessionMiddleware,
  // The page's language (docs/decisions/0043-languages.md). A choice made with ?lang= (the switcher, a shared
  // link) is kept in a cookie and, for a signed-in person, in their account: their emails follow it.
  async ({ request, context }, next) => {
    const user = currentUser(context);
    const [{ language, source }] = await Promise.all([requestLanguage(request, user?.language), refreshInterfaceOverrides()]);
    context.set(languageContext, language);
    if (source !== "query") return next();
    if (user && user.language !== language) await setAccountLanguage(user.id, language);
    const response = (await next()) as Response;
    response.headers.append("Set-Cookie", languageCookie(language));
    return response;
  },
  async ({ request }, next) => {
    const response = (await next()) as Response;
    const setsFlash = (response.headers.get("Set-Cookie") ?? "").includes("__flash=");
    if (hasFlash(request) && request.method === "GET" && response.status < 300 && !setsFlash) {
      response.headers.append("Set-Cookie", await clearFlashHeader());
    }
    return response;
  },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const signedIn = currentUser(context);
  const user: HeaderUser | null = signedIn
    ? { firstName: signedIn.firstName, lastName: signedIn.lastName, administrator: signedIn.administrator, helper: signedIn.helper }
    : null;
  const language = context.get(languageContext);
  const session = context.get(sessionContext);
  // How long the session has without another request: the sign-out warning's start (app/ui/session-timeout.tsx).
  const secondsLeft = signedIn && session ? Math.max(0, Math.floor((new Date(session.endsAt).getTime() - Date.now()) / 1000)) : null;
  return { user, toast: await readToast(request), language, languages: languageLinks(request, await offeredLanguages(), language), secondsLeft };
}

/**
 * What a route may ask of the document through its `handle`: React hydration (`hydrate`), or small scripts of
 * its own instead (`scripts`, URLs under /scripts).
 */
export interface RouteHandle {
  hydrate?: boolean;
  scripts?: string[];
  /**
   * A page where a signed-in person types (an interview, the AI pages): warned before the session ends for doing
   * nothing, with "Stay signed in" (public/scripts/session-timeout.js; docs/decisions/0051).
   */
  sessionTimeout?: boolean;
}

const SESSION_TIMEOUT_SCRIPT = "/scripts/session-timeout.js";

function useRouteHandles() {
  const handles = useMatches().map((match) => (match.handle ?? {}) as RouteHandle);
  return {
    hydrate: handles.some((handle) => handle.hydrate === true),
    scripts: [...new Set(handles.flatMap((handle) => handle.scripts ?? []))],
    sessionTimeout: handles.some((handle) => handle.sessionTimeout === true),
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  const { hydrate, scripts: routeScripts, sessionTimeout } = useRouteHandles();
  const data = useRouteLoaderData<typeof loader>("root");
  const location = useLocation();
  const t = useT();
  const timeout = sessionTimeout && data?.user && typeof data.secondsLeft === "number" ? data.secondsLeft : null;
  const scripts = timeout === null ? routeScripts : [...routeScripts, SESSION_TIMEOUT_SCRIPT];
  return (
    <html lang={t.lang} dir={t.dir}>
      <head>
        <DocumentMeta />
        <Meta />
        <Links />
      </head>
      <body>
        <a className="skip-link" href="#main-content">
          {t.t("site.skipLink")}
        </a>
        <Header user={data?.user ?? null} languages={data?.languages ?? []} />
        <main id="main-content" tabIndex={-1}>
          {data?.toast ? <PageErrorMessage toast={data.toast} /> : null}
          {children}
        </main>
        <Footer />
        {data?.toast ? <ToastMessage toast={data.toast} /> : null}
        {timeout !== null ? <SessionTimeout secondsLeft={timeout} returnTo={location.pathname + location.search} /> : null}
        {scripts.map((src) => (
          <script key={src} src={src} nonce={nonce} defer />
        ))}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  if (isRouteErrorResponse(error) && error.status === 404) {
    const backHref = (error.data as NotFoundData | null)?.backHref ?? "/";
    return <NotFound backHref={backHref} />;
  }
  if (isRouteErrorResponse(error) && error.status === 429) {
    return <TooManyRequestsPage message={(error.data as TooManyRequestsData).message} />;
  }
  // The server's log has it already (handleError, app/entry.server.tsx); a hydrated page's error goes to the browser's console.
  if (!isRouteErrorResponse(error) && typeof document !== "undefined") console.error(error);
  return <ErrorPage status={isRouteErrorResponse(error) ? error.status : 500} />;
}
