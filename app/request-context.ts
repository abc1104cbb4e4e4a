import { createContext } from "react-router";

/** The CSP nonce of the current response, set by the HTTP server for each request. */
export const nonceContext = createContext<string>("");

/** The client's address, for per-address abuse limits: the connection's, or behind a proxy TRUST_PROXY names, the one it reports. */
export const clientAddressContext = createContext<string>("unknown");

/** The language of the page (app/i18n/languages.ts), chosen by the root's middleware. */
export const languageContext = createContext<string>("en");
