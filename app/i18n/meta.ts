import { DEFAULT_LANGUAGE } from "./languages";
import { type Translator, translator } from "./translator";

/**
 * The translator of a route's `meta` (which runs outside React): the page's language comes with the root's data.
 * `export const meta = ({ matches }) => [{ title: pageTitle(metaTranslator(matches).t("…"), false, metaTranslator(matches)) }]`.
 */
export function metaTranslator(matches: readonly unknown[]): Translator {
  const root = matches.find((match) => (match as { id?: string } | undefined)?.id === "root") as { data?: { language?: string } } | undefined;
  return translator(root?.data?.language ?? DEFAULT_LANGUAGE);
}
