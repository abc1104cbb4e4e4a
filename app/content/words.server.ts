// An administrator's corrections to the interface's own words in a language (a translator's fix without a
// release): content of kind "strings", one item per language, with versions, drafts and audit as all content
// (docs/decisions/0044-content-in-every-language.md). Published, they replace the catalogue's message for that
// key (app/i18n/overrides.server.ts).
import type { Actor } from "~/audit/audit.server";
import { database } from "~/db.server";
import { placeholderProblem } from "~/i18n/placeholders";
import { catalogues, type MessageKey, viewerCatalogues } from "~/i18n/translator";
import type { Db } from "../../db/database";
import { type ContentChange, loadItem, saveContent } from "./versions.server";

const english = catalogues.en as Record<string, string>;

/** The catalogue a language ships: a product language's, or one the viewer alone speaks (its `viewer.*` keys). */
function shippedCatalogue(language: string): Record<string, string> | undefined {
  return (catalogues as Record<string, Record<string, string>>)[language] ?? (viewerCatalogues as Record<string, Record<string, string>>)[language];
}

/** Whether a key is a message the language has, so can be corrected in it. */
export function isMessageKey(key: string, language: string): key is MessageKey {
  return Object.hasOwn(english, key) && Object.hasOwn(shippedCatalogue(language) ?? {}, key);
}

/** Every key the language has, with its English message and the language's shipped one, for the form's list. */
export function shippedWords(language: string) {
  const shipped = shippedCatalogue(language) ?? {};
  return Object.keys(english)
    .filter((key) => Object.hasOwn(shipped, key))
    .map((key) => ({ key, english: english[key]!, shipped: shipped[key]! }));
}

/** The language's corrections: those published, and a newer draft's if there is one (what the form edits). */
export async function loadWords(language: string, db: Db = database()) {
  const { published, pendingDraft } = await loadItem("strings", language, db);
  return {
    published: published?.messages ?? {},
    pendingDraft: pendingDraft ? { version: pendingDraft.version, createdAt: pendingDraft.createdAt, authorEmail: pendingDraft.authorEmail, source: pendingDraft.source, messages: pendingDraft.body.messages } : null,
    messages: (pendingDraft?.body ?? published)?.messages ?? {},
  };
}

/** Why a correction cannot stand for a key's message (null when it can): it must keep English's placeholders. */
export function wordProblem(key: MessageKey, text: string): string | null {
  const problem = placeholderProblem(text, english[key]!);
  if (!problem) return null;
  if ("unreadable" in problem) return "This text cannot be read as a message: check its braces { } and tags < >.";
  const named = (list: string[]) => list.map((p) => (p.startsWith("<") ? `the tag ${p}` : `{${p.split(":")[0]}}`)).join(", ");
  if (problem.missing.length) return `This text must keep ${named(problem.missing)}, as the English message has.`;
  return `This text has ${named(problem.extra)}, which the English message does not: remove it.`;
}

/**
 * Sets (or, with `text` null, removes) the correction of one key, on top of the newest version (a draft's
 * corrections are kept), saved as a draft or published with the rest.
 */
export async function saveWord(language: string, key: MessageKey, text: string | null, status: "draft" | "published", actor: Actor, db: Db = database()): Promise<ContentChange> {
  const { messages } = await loadWords(language, db);
  const next = { ...messages };
  if (text === null) delete next[key];
  else next[key] = text;
  return saveContent("strings", language, { messages: next }, status, actor, db);
}
