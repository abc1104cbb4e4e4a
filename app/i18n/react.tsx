import { createContext, Fragment, type ReactNode, useContext } from "react";
import { DEFAULT_LANGUAGE } from "./languages";
import { type MessageKey, type MessageValues, type Translator, translator } from "./translator";

const I18nContext = createContext<Translator>(translator(DEFAULT_LANGUAGE));

/** Set once per page by the server's entry (app/entry.server.tsx) and by the viewer's renderer. */
export const I18nProvider = I18nContext.Provider;

/** The page's translator: `const { t } = useT()`. */
export function useT(): Translator {
  return useContext(I18nContext);
}

/**
 * A message with markup in it: each <tag>…</tag> of the message is drawn by the function of that name
 * (`tags={{ terms: (words) => <a href="/legal/terms-and-conditions/">{words}</a> }}`).
 */
export function RichText({ id, values = {}, tags }: { id: MessageKey; values?: MessageValues; tags: Record<string, (chunks: ReactNode[]) => ReactNode> }) {
  const parts = useT().rich<ReactNode>(id, values, tags);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>{part}</Fragment>
      ))}
    </>
  );
}
