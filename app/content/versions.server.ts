// Editing content with versions: every save is a version (a draft, or published to the public table), with
// who and when; a version can be compared with the one before and restored. One set of functions for every
// kind (countries, issues, the home page, About, terms, privacy). Each change is audited in its transaction.
// docs/decisions/0028-content-versions.md.
import { diffLines } from "diff";
import type { Db } from "../../db/database";
import {
  addVersion,
  type ContentBodies,
  type ContentKind,
  type ContentVersion,
  deleteLive,
  getVersion,
  itemId,
  type ItemKind,
  parseTranslationKey,
  translatedFields,
  translationKey,
  latestVersion,
  listVersions,
  liveBody,
  publishDraftVersion,
  sameBody,
  type VersionAuthor,
  writeLive,
} from "../../db/content-versions";
import { type Actor, recordAuditEvent } from "~/audit/audit.server";
import { database } from "~/db.server";
import { fieldLabels, markdownFields } from "./editing";
import { findLanguage } from "~/i18n/languages";
import { wordsLanguage } from "./items";
import { forgetInterfaceOverrides } from "~/i18n/overrides.server";

export type { ContentBodies, ContentKind, ContentVersion, ItemKind } from "../../db/content-versions";

export const contentMessages = {
  countryHasIssues: "This country has issues: move or delete its issues first.",
  issueHasInterviews: "This issue has interviews: people have started it, so it cannot be deleted.",
  noCountry: "Choose a country that exists.",
  noGuide: "Choose a guide that exists.",
  notFound: "This item does not exist any more.",
  savedAtOnce: "Someone else saved this at the same moment: nothing of yours was saved. Check the content and save again.",
  restoreWithoutCountry: "This version names a country or guide that does not exist any more: restore or choose those first.",
} as const;

/**
 * What a change did: a new version, a draft published as it was (`publishedDraft`), or nothing because the
 * content is already the newest version's (`unchanged`).
 */
export type ContentChange =
  | { ok: true; key: string; version: number; publishedDraft?: true; unchanged?: true }
  | { ok: false; field?: string; message: string };

/**
 * Runs a change in a transaction. Two changes of one item at the same instant both take the same next version
 * number (or new id); the database's key refuses the second, which is then told so instead of failing.
 */
async function oneAtATime(db: Db, change: (trx: Db) => Promise<ContentChange>): Promise<ContentChange> {
  try {
    // Inside a caller's transaction (attaching a guide is audited with the guide's change), the change joins it.
    const changed = db.isTransaction ? await change(db) : await db.transaction().execute(change);
    // Interface words this instance published apply from its next page, not up to 5 s later.
    if (changed.ok) forgetInterfaceOverrides();
    return changed;
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, message: contentMessages.savedAtOnce };
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  // PostgreSQL's unique_violation; SQLite's constraint codes for a primary key or unique index.
  return code === "23505" || code === "SQLITE_CONSTRAINT_PRIMARYKEY" || code === "SQLITE_CONSTRAINT_UNIQUE";
}

function authorOf(actor: Actor): VersionAuthor {
  return { source: actor.id === null ? "command line" : "administrator", id: actor.id, email: actor.email };
}

/** How the audit names an item. */
export function subjectOf(kind: ContentKind, key: string): string {
  if (kind === "strings") return `interface words in ${key}`;
  if (kind === "translation") {
    const translated = parseTranslationKey(key);
    return translated ? `${subjectOf(translated.kind, translated.key)} in ${translated.language}` : `translation ${key}`;
  }
  if (kind === "home") return "home page";
  if (kind === "legal") return `page ${key}`;
  return `${kind} ${key}`;
}

/** What the edit page needs: the published content, the newest version, and whether that is a newer draft. */
export async function loadItem<K extends ContentKind>(kind: K, key: string, db: Db = database()) {
  const [published, latest] = await Promise.all([liveBody(db, kind, key), latestVersion(db, kind, key)]);
  const pendingDraft = latest?.status === "draft" ? latest : null;
  return { published, latest, pendingDraft, body: pendingDraft?.body ?? published };
}

/** Whether an item has a public row, or a draft not yet published (a new one); not once deleted. */
export async function itemExists(kind: ContentKind, key: string, db: Db = database()): Promise<boolean> {
  if (kind === "home" || kind === "legal") return true;
  // Words exist in every shipped language; a translation while the item it translates does.
  if (kind === "strings") return wordsLanguage(key) !== null;
  if (kind === "translation") {
    const translated = parseTranslationKey(key);
    return translated !== null && findLanguage(translated.language)?.code === translated.language && (await itemExists(translated.kind, translated.key, db));
  }
  if (await liveBody(db, kind, key)) return true;
  const latest = await latestVersion(db, kind, key);
  return latest !== null && latest.status !== "deleted";
}

/** New countries and issues saved only as drafts so far: no public row yet, so the lists add them. */
export async function unpublishedItems(db: Db = database()) {
  const rows = await db
    .selectFrom("content_versions as v")
    .select(["v.kind", "v.item_key", "v.body"])
    .where("v.kind", "in", ["country", "issue"])
    .where((eb) =>
      eb("v.version", "=", eb.selectFrom("content_versions as w").select((w) => w.fn.max("w.version").as("m")).whereRef("w.kind", "=", "v.kind").whereRef("w.item_key", "=", "v.item_key")),
    )
    .where("v.status", "=", "draft")
    .execute();
  const [countries, issues] = await Promise.all([
    db.selectFrom("categories").select("id").execute(),
    db.selectFrom("issues").select("id").execute(),
  ]);
  const live = new Set([...countries.map((c) => `country:${c.id}`), ...issues.map((i) => `issue:${i.id}`)]);
  return rows
    .filter((row) => !live.has(`${row.kind}:${row.item_key}`))
    .map((row) => ({ kind: row.kind as "country" | "issue", key: row.item_key, name: (JSON.parse(row.body) as { name: string }).name }));
}

/** Where an item stands: a draft newer than what is published, and when it was last published (null: as loaded). */
export interface ItemStatus {
  draftPending: boolean;
  lastPublished: string | null;
}

/** Every versioned item's status, keyed "kind:key" (itemId): for the content list. Two aggregate queries. */
export async function itemStatuses(db: Db = database()): Promise<Record<string, ItemStatus>> {
  const [latest, published] = await Promise.all([
    db
      .selectFrom("content_versions as v")
      .select(["v.kind", "v.item_key", "v.status"])
      .where((eb) =>
        eb("v.version", "=", eb.selectFrom("content_versions as w").select((w) => w.fn.max("w.version").as("m")).whereRef("w.kind", "=", "v.kind").whereRef("w.item_key", "=", "v.item_key")),
      )
      .execute(),
    db
      .selectFrom("content_versions")
      .select(["kind", "item_key"])
      .select((eb) => eb.fn.max(eb.fn.coalesce("published_at", "created_at")).as("at"))
      .where("status", "=", "published")
      .groupBy(["kind", "item_key"])
      .execute(),
  ]);
  const statuses: Record<string, ItemStatus> = {};
  for (const row of latest) statuses[itemId(row.kind as ContentKind, row.item_key)] = { draftPending: row.status === "draft", lastPublished: null };
  for (const row of published) {
    const status = statuses[itemId(row.kind as ContentKind, row.item_key)];
    if (status) status.lastPublished = row.at === null ? null : String(row.at);
  }
  return statuses;
}

/** Countries and guides an issue can name, for its form's selects. */
export async function issueChoices(db: Db = database()) {
  const [countries, guides] = await Promise.all([
    db.selectFrom("categories").select(["id", "name"]).orderBy("sort_order").orderBy("name").execute(),
    db.selectFrom("guides").select(["id", "title"]).where("published_version", "is not", null).orderBy("title").orderBy("id").execute(),
  ]);
  return { countries, guides };
}

async function checkReferences<K extends ContentKind>(trx: Db, kind: K, key: string | null, body: ContentBodies[K]): Promise<ContentChange | null> {
  if (kind !== "issue") return null;
  const issue = body as ContentBodies["issue"];
  const country = await trx.selectFrom("categories").select("id").where("id", "=", issue.countryId).executeTakeFirst();
  if (!country) return { ok: false, field: "countryId", message: contentMessages.noCountry };
  // A guide the issue already runs stays allowed even if it is not (yet) imported: the form shows it as it is.
  const current = key === null ? null : await liveBody(trx, "issue", key);
  if (issue.guideId && issue.guideId !== current?.guideId) {
    const guide = await trx.selectFrom("guides").select("id").where("id", "=", issue.guideId).where("published_version", "is not", null).executeTakeFirst();
    if (!guide) return { ok: false, field: "guideId", message: contentMessages.noGuide };
  }
  return null;
}

/** The id a new country or issue gets: one more than the highest (ids are the seed's small numbers). */
async function nextId(trx: Db, kind: "country" | "issue"): Promise<string> {
  const table = kind === "country" ? "categories" : "issues";
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.max<number | string | null>("id").as("highest"))
    .executeTakeFirst();
  // A deleted item's versions keep its id taken, so a new item never inherits another's history.
  const versions = await trx
    .selectFrom("content_versions")
    .select("item_key")
    .where("kind", "=", kind)
    .distinct()
    .execute();
  const highest = Math.max(Number(row?.highest ?? 0), ...versions.map((v) => Number(v.item_key)).filter(Number.isFinite));
  return String(highest + 1);
}

/**
 * Saves an item's content as a new version: a draft (the public page is unchanged) or published (the public
 * table holds it from now on). `key` null makes a new country or issue.
 */
export async function saveContent<K extends ContentKind>(
  kind: K,
  key: string | null,
  body: ContentBodies[K],
  status: "draft" | "published",
  actor: Actor,
  db: Db = database(),
): Promise<ContentChange> {
  return oneAtATime(db, async (trx) => {
    const refused = await checkReferences(trx, kind, key, body);
    if (refused) return refused;
    let itemKey: string;
    if (key === null) {
      if (kind !== "country" && kind !== "issue") return { ok: false, message: contentMessages.notFound };
      itemKey = await nextId(trx, kind);
    } else {
      if (!(await itemExists(kind, key, trx))) return { ok: false, message: contentMessages.notFound };
      itemKey = key;
    }
    // The content of the newest version again adds no version: publishing a draft as it was saved publishes that
    // draft (no second version whose every line is "Unchanged"), and saving what is already there changes nothing.
    const latest = key === null ? null : await latestVersion(trx, kind, itemKey);
    if (latest && latest.status !== "deleted" && sameBody(kind, latest.body, body)) {
      if (status === "draft" || latest.status === "published") return { ok: true, key: itemKey, version: latest.version, unchanged: true };
      if (!(await publishDraftVersion(trx, kind, itemKey, latest.version, authorOf(actor)))) return { ok: false, message: contentMessages.savedAtOnce };
      await writeLive(trx, kind, itemKey, body);
      await recordAuditEvent(actor, { action: "content.published", subject: subjectOf(kind, itemKey), details: { kind, key: itemKey, version: latest.version } }, trx);
      return { ok: true, key: itemKey, version: latest.version, publishedDraft: true };
    }
    // A new item saved as a draft still needs its public row to exist (an issue names its country by it): it is
    // made only when published. Until then its versions hold it.
    const saved = await addVersion(trx, { kind, key: itemKey, status, body }, authorOf(actor));
    if (status === "published") await writeLive(trx, kind, itemKey, body);
    await recordAuditEvent(
      actor,
      { action: status === "published" ? "content.published" : "content.saved", subject: subjectOf(kind, itemKey), details: { kind, key: itemKey, version: saved.version } },
      trx,
    );
    return { ok: true, key: itemKey, version: saved.version };
  });
}

/** Publishes an item's newest draft as it is. */
export async function publishDraft(kind: ContentKind, key: string, actor: Actor, db: Db = database()): Promise<ContentChange> {
  const latest = await latestVersion(db, kind, key);
  if (latest?.status !== "draft") return { ok: false, message: contentMessages.notFound };
  return saveContent(kind, key, latest.body, "published", actor, db);
}

/** Makes a new published version whose content is that of an earlier one. */
export async function restoreVersion(kind: ContentKind, key: string, version: number, actor: Actor, db: Db = database()): Promise<ContentChange> {
  return oneAtATime(db, async (trx) => {
    const earlier = await getVersion(trx, kind, key, version);
    if (!earlier || earlier.status === "deleted") return { ok: false, message: contentMessages.notFound };
    if (await checkReferences(trx, kind, key, earlier.body)) return { ok: false, message: contentMessages.restoreWithoutCountry };
    const restored = await addVersion(trx, { kind, key, status: "published", body: earlier.body }, authorOf(actor));
    await writeLive(trx, kind, key, earlier.body);
    await recordAuditEvent(actor, { action: "content.restored", subject: subjectOf(kind, key), details: { kind, key, version: restored.version, from: version } }, trx);
    return { ok: true, key, version: restored.version };
  });
}

/**
 * Deletes a country without issues or an issue without interviews. Its history stays, ending in a "deleted"
 * version, so the seed does not bring it back.
 */
export async function deleteContent(kind: "country" | "issue", key: string, actor: Actor, db: Db = database()): Promise<ContentChange> {
  return oneAtATime(db, async (trx) => {
    const body = await liveBody(trx, kind, key);
    if (!body) return { ok: false, message: contentMessages.notFound };
    if (kind === "country") {
      const issue = await trx.selectFrom("issues").select("id").where("category_id", "=", Number(key)).limit(1).executeTakeFirst();
      if (issue) return { ok: false, message: contentMessages.countryHasIssues };
    } else {
      const interview = await trx.selectFrom("interviews").select("id").where("issue_id", "=", Number(key)).limit(1).executeTakeFirst();
      if (interview) return { ok: false, message: contentMessages.issueHasInterviews };
    }
    const deleted = await addVersion(trx, { kind, key, status: "deleted", body }, authorOf(actor));
    await deleteLive(trx, kind, key);
    await recordAuditEvent(actor, { action: "content.deleted", subject: subjectOf(kind, key), details: { kind, key, name: body.name, version: deleted.version } }, trx);
    return { ok: true, key, version: deleted.version };
  });
}

export async function history<K extends ContentKind>(kind: K, key: string, db: Db = database()): Promise<ContentVersion<K>[]> {
  return listVersions(db, kind, key);
}

export interface DiffLine {
  change: "added" | "removed" | "same";
  text: string;
}

/**
 * An item's content as lines, labelled as its form labels them, for a line diff. A translation (its key says
 * what it translates) as its item's translated fields; words as one line each, by key.
 */
export function bodyAsText<K extends ContentKind>(kind: K, body: ContentBodies[K], key = ""): string {
  if (kind === "strings") {
    const { messages } = body as ContentBodies["strings"];
    return Object.keys(messages).length ? `${Object.entries(messages).map(([id, text]) => `${id}: ${text}`).join("\n")}\n` : "";
  }
  if (kind === "translation") {
    const translated = parseTranslationKey(key);
    const itemKind: ItemKind = translated?.kind ?? "legal";
    const labels = fieldLabels[itemKind] as Record<string, string>;
    const shownFields = Object.fromEntries((translatedFields[itemKind] as readonly string[]).map((field) => [field, labels[field] ?? field]));
    return fieldsAsText(shownFields, (body as ContentBodies["translation"]).fields, markdownFields[itemKind] as string[]);
  }
  return fieldsAsText(fieldLabels[kind as ItemKind] as Record<string, string>, body as unknown as Record<string, unknown>, markdownFields[kind as ItemKind] as string[]);
}

function fieldsAsText(labels: Record<string, string>, values: Record<string, unknown>, markdownFieldNames: string[]): string {
  const markdown = new Set<string>(markdownFieldNames);
  const lines: string[] = [];
  for (const [field, label] of Object.entries(labels)) {
    const value = values[field];
    const shown = Array.isArray(value) ? value.join(", ") : value === null || value === undefined ? "" : typeof value === "boolean" ? (value ? "yes" : "no") : String(value);
    if (markdown.has(field)) lines.push(`${label}:`, ...shown.replace(/\r\n/g, "\n").replace(/\n+$/, "").split("\n"));
    else lines.push(`${label}: ${shown}`);
  }
  return `${lines.join("\n")}\n`;
}

/** The lines that changed from one body to the next (jsdiff's line diff). */
export function diffBodies<K extends ContentKind>(kind: K, before: ContentBodies[K] | null, after: ContentBodies[K], key = ""): DiffLine[] {
  return diffTextLines(before ? bodyAsText(kind, before, key) : "", bodyAsText(kind, after, key));
}

/** The lines of two texts, each added, removed or the same (jsdiff's line diff); a guide's documents use it too. */
export function diffTextLines(before: string, after: string): DiffLine[] {
  const parts = diffLines(before, after);
  return parts.flatMap((part) => {
    const change: DiffLine["change"] = part.added ? "added" : part.removed ? "removed" : "same";
    return part.value.replace(/\n$/, "").split("\n").map((text) => ({ change, text }));
  });
}

/** A version, the one before it, and the lines that differ. */
export async function versionWithDiff<K extends ContentKind>(kind: K, key: string, version: number, db: Db = database()) {
  const [current, previous] = await Promise.all([getVersion(db, kind, key, version), version > 1 ? getVersion(db, kind, key, version - 1) : null]);
  if (!current) return null;
  return { version: current, previous, lines: diffBodies(kind, previous?.body ?? null, current.body, key) };
}

/** An item in another language: its translation (published, and a newer draft) beside its default content. */
export async function loadTranslation(kind: ItemKind, key: string, language: string, db: Db = database()) {
  const [item, translation] = await Promise.all([loadItem(kind, key, db), loadItem("translation", translationKey(kind, key, language), db)]);
  return { original: item.published, ...translation };
}

/** Where each language's translation of an item stands: published, a draft waiting, or none. */
export async function translationStatuses(kind: ItemKind, key: string, languages: readonly string[], db: Db = database()) {
  const statuses = await itemStatuses(db);
  return languages.map((language) => {
    const status = statuses[itemId("translation", translationKey(kind, key, language))];
    return { language, published: Boolean(status?.lastPublished), draftPending: status?.draftPending ?? false };
  });
}
