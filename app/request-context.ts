import { createContext } from "react-router";

/** The CSP nonce of the current response, set by the HTTP server for each request. */
export const nonceContext = createContext<string>("");

/** The client's address (behind one proxy, the one it reports), for per-address abuse limits. */
export const clientAddressContext = createContext<string>("unknown");

/** The language of the page (app/i18n/languages.ts), chosen by the root's middleware. */
export const languageContext = createContext<string>("en");
