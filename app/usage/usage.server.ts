import { sql } from "kysely";
import type { Db } from "../../db/database";
import type { UsageEventKind } from "../../db/schema";
import { database } from "~/db.server";
import { getGuide } from "~/guides/guides.server";
import { pageToken, pageTokenKey } from "./page-token.server";
import {
  ABANDONED_AFTER_DAYS,
  CHECK_ANSWERS_PAGE,
  type IssueUsage,
  type IssueUsageSummary,
  type LanguageUsage,
  type StopPage,
  STOP_PAGE_MIN_COUNT,
  type UsageCounts,
  USAGE_MONTHS,
} from "./usage";

/**
 * How the service is used, per issue (docs/decisions/0030-usage-counts.md). Counted from the anonymous
 * `usage_events` (started, completed, downloaded, and unfinished interviews that were deleted) and from the
 * interviews' clear columns (status, last change, the page they are at): no interview is opened to count.
 */

const zero = (): UsageCounts => ({
  started: 0,
  completed: 0,
  abandoned: 0,
  downloaded: 0,
  signed: 0,
});
const monthOf = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 7)`;
const EVENT_COUNTS: Partial<Record<UsageEventKind, keyof UsageCounts>> = {
  started: "started",
  completed: "completed",
  downloaded: "downloaded",
  signed: "signed",
  // A Draft deleted (by the person, or with their account) was given up: abandoned in the month of its last change.
  left: "abandoned",
};

/** The last change before which a Draft counts as abandoned. */
export function abandonedBefore(now: Date): string {
  return new Date(now.getTime() - ABANDONED_AFTER_DAYS * 86_400_000).toISOString();
}

/** The months shown, oldest first: the last USAGE_MONTHS up to `now`'s (UTC). */
export function recentMonths(now: Date, count = USAGE_MONTHS): string[] {
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (count - 1 - i), 1));
    return d.toISOString().slice(0, 7);
  });
}

/**
 * Records that a person downloaded an interview's document: its issue, the month and the language it ran in (no
 * person, no interview).
 */
export async function recordDownload(issueId: number, language: string | null, db: Db = database(), now = new Date()): Promise<void> {
  await db
    .insertInto("usage_events")
    .values({
      issue_id: issueId,
      month: now.toISOString().slice(0, 7),
      kind: "downloaded",
      page: null,
      language,
    })
    .execute();
}

/** Records that a document was signed by everyone (app/signing/): its issue, the month and the language (no person). */
export async function recordSigned(issueId: number, language: string | null, db: Db = database(), now = new Date()): Promise<void> {
  await db.insertInto("usage_events").values({ issue_id: issueId, month: now.toISOString().slice(0, 7), kind: "signed", page: null, language }).execute();
}

type Counted = {
  issue_id: number;
  month: string;
  language: string | null;
  kind: UsageEventKind | "abandoned";
  count: string | number;
};

/**
 * The counts by issue, month, language and kind: the events, and the Drafts abandoned now (by their last change's
 * month); one issue's, or every issue's. Each page adds up the ones it shows.
 */
async function countsBy(db: Db, now: Date, issueId?: number): Promise<Counted[]> {
  let events = db
    .selectFrom("usage_events")
    .select(["issue_id", "month", "language", "kind", (eb) => eb.fn.countAll<string | number>().as("count")])
    .groupBy(["issue_id", "month", "language", "kind"]);
  let idle = db
    .selectFrom("interviews")
    .select([
      "issue_id",
      monthOf("updated_at").as("month"),
      "language",
      sql<"abandoned">`'abandoned'`.as("kind"),
      (eb) => eb.fn.countAll<string | number>().as("count"),
    ])
    .where("status", "=", "Draft")
    .where("updated_at", "<", abandonedBefore(now))
    .groupBy(["issue_id", monthOf("updated_at"), "language"]);
  if (issueId !== undefined) {
    events = events.where("issue_id", "=", issueId);
    idle = idle.where("issue_id", "=", issueId);
  }
  const [eventRows, idleRows] = await Promise.all([events.execute(), idle.execute()]);
  return [...eventRows, ...(idleRows as Counted[])];
}

function add(counts: UsageCounts, row: Counted) {
  const key = row.kind === "abandoned" ? "abandoned" : EVENT_COUNTS[row.kind];
  if (key) counts[key] += Number(row.count);
}

/**
 * The counts by the language interviews ran in (docs/decisions/0048-guides-per-language.md), most started first.
 * Events counted before languages were recorded are `language: null`.
 */
function byLanguage(counted: readonly Counted[]): LanguageUsage[] {
  const totals = new Map<string | null, UsageCounts>();
  for (const row of counted) {
    const counts = totals.get(row.language) ?? totals.set(row.language, zero()).get(row.language)!;
    add(counts, row);
  }
  return [...totals]
    .map(([language, counts]) => ({ language, ...counts }))
    .sort((a, b) => b.started - a.started || (a.language ?? "~").localeCompare(b.language ?? "~"));
}

/** Every issue with its totals, in the order the public pages list them, and every issue's counts by language. */
export async function usageOfAllIssues(db: Db = database(), now = new Date()): Promise<{ issues: IssueUsageSummary[]; languages: LanguageUsage[] }> {
  const [issues, counted] = await Promise.all([
    db
      .selectFrom("issues")
      .innerJoin("categories", "categories.id", "issues.category_id")
      .select(["issues.id", "issues.name", "categories.name as country"])
      .orderBy("categories.sort_order")
      .orderBy("issues.id")
      .execute(),
    countsBy(db, now),
  ]);
  const totals = new Map<number, UsageCounts>();
  for (const row of counted) {
    const issueId = Number(row.issue_id);
    const counts = totals.get(issueId) ?? zero();
    add(counts, row);
    totals.set(issueId, counts);
  }
  return {
    issues: issues.map((issue) => ({
      issueId: issue.id,
      issueName: issue.name,
      countryName: issue.country,
      ...(totals.get(issue.id) ?? zero()),
    })),
    languages: byLanguage(counted),
  };
}

/** One issue's usage: totals, the recent months, and where unfinished interviews stop; null for an unknown issue. */
export async function issueUsage(issueId: number, db: Db = database(), now = new Date()): Promise<IssueUsage | null> {
  const issue = await db
    .selectFrom("issues")
    .innerJoin("categories", "categories.id", "issues.category_id")
    .select(["issues.id", "issues.name", "issues.guide_id", "categories.name as country"])
    .where("issues.id", "=", issueId)
    .executeTakeFirst();
  if (!issue) return null;
  const [counted, tokens, guide, key] = await Promise.all([
    countsBy(db, now, issueId),
    stopCounts(db, issueId),
    issue.guide_id ? getGuide(issue.guide_id, db) : null,
    pageTokenKey(db),
  ]);
  const stops = pageNames(tokens, guide ? Object.keys(guide.pages) : [], key);
  const totals = zero();
  const byMonth = new Map(recentMonths(now).map((month) => [month, { month, ...zero() }]));
  for (const row of counted) {
    add(totals, row);
    const month = byMonth.get(row.month);
    if (month) add(month, row);
  }
  return {
    issueId,
    issueName: issue.name,
    countryName: issue.country,
    totals,
    months: [...byMonth.values()],
    languages: byLanguage(counted),
    stopPages: stopPages(stops),
    unfinished: stops.reduce((sum, s) => sum + s.count, 0),
  };
}

/**
 * The stop counts by page name: the tokens of the guide's pages (and of "Check your answers") turned back into
 * names; a token of none of them (a page of an earlier version of the guide) is `undefined`.
 */
export function pageNames(
  tokens: { page: string | null; count: number }[],
  guidePages: string[],
  key: Buffer,
): { page: string | null | undefined; count: number }[] {
  const names = new Map([CHECK_ANSWERS_PAGE, ...guidePages].map((name) => [pageToken(name, key), name]));
  return tokens.map(({ page, count }) => ({ page: page === null ? null : names.get(page), count }));
}

/** Unfinished interviews by the page token they are (or were, when deleted) last on; null: not recorded. */
async function stopCounts(db: Db, issueId: number): Promise<{ page: string | null; count: number }[]> {
  const [open, left] = await Promise.all([
    db
      .selectFrom("interviews")
      .select(["last_page as page", (eb) => eb.fn.countAll<string | number>().as("count")])
      .where("issue_id", "=", issueId)
      .where("status", "=", "Draft")
      .groupBy("last_page")
      .execute(),
    db
      .selectFrom("usage_events")
      .select(["page", (eb) => eb.fn.countAll<string | number>().as("count")])
      .where("issue_id", "=", issueId)
      .where("kind", "=", "left")
      .groupBy("page")
      .execute(),
  ]);
  const counts = new Map<string | null, number>();
  for (const row of [...open, ...left]) counts.set(row.page, (counts.get(row.page) ?? 0) + Number(row.count));
  return [...counts].map(([page, count]) => ({ page, count }));
}

/**
 * The stop pages, most often first: pages with at least STOP_PAGE_MIN_COUNT interviews by name, the rest
 * together (and their sum only when it too reaches the minimum), so no page names the few people behind it.
 */
export function stopPages(stops: { page: string | null | undefined; count: number }[]): StopPage[] {
  const named: StopPage[] = [];
  let unrecorded = 0;
  let retired = 0;
  let others = 0;
  let otherPages = 0;
  for (const { page, count } of stops) {
    if (page === null) unrecorded += count;
    else if (page === undefined) retired += count;
    else if (count < STOP_PAGE_MIN_COUNT) {
      others += count;
      otherPages += 1;
    } else named.push(page === CHECK_ANSWERS_PAGE ? { kind: "check-answers", count } : { kind: "page", page, count });
  }
  // Most first; equal counts by page name, "Check your answers" after the guide's pages.
  const name = (s: StopPage) => ("page" in s ? s.page : "\uffff");
  const byCount = (a: StopPage, b: StopPage) => (b.count ?? 0) - (a.count ?? 0) || name(a).localeCompare(name(b));
  named.sort(byCount);
  if (otherPages)
    named.push({
      kind: "others",
      pages: otherPages,
      count: others >= STOP_PAGE_MIN_COUNT ? others : null,
    });
  if (retired) named.push({ kind: "retired", count: retired });
  if (unrecorded) named.push({ kind: "unrecorded", count: unrecorded });
  return named;
}
