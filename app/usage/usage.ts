/**
 * What the usage pages show and the rules they count by (docs/decisions/0030-usage-counts.md), shared by the
 * server that counts and the pages that show the counts.
 */

/** An interview still a Draft this many days after its last change is abandoned. */
export const ABANDONED_AFTER_DAYS = 30;
/** A stop page with fewer interviews than this is not named alone: the few people behind it could be known. */
export const STOP_PAGE_MIN_COUNT = 5;
/** How many months the per-issue page shows, this one included. */
export const USAGE_MONTHS = 12;

export interface UsageCounts {
  started: number;
  completed: number;
  abandoned: number;
  downloaded: number;
  /** Documents signed by everyone who had to sign them (app/signing/). */
  signed: number;
}

export interface IssueUsageSummary extends UsageCounts {
  issueId: number;
  issueName: string;
  countryName: string;
}

export interface LanguageUsage extends UsageCounts {
  /** The language the interviews ran in (a BCP 47 tag); null: counted before languages were recorded. */
  language: string | null;
}

export interface MonthUsage extends UsageCounts {
  /** "YYYY-MM". */
  month: string;
}

/** A page where unfinished interviews stopped: a guide page, "Check your answers", or the rest grouped. */
export type StopPage =
  | { kind: "page"; page: string; count: number }
  | { kind: "check-answers"; count: number }
  /** Pages each with fewer than STOP_PAGE_MIN_COUNT, together; `count` null when even the sum is under it. */
  | { kind: "others"; pages: number; count: number | null }
  /** Pages that are not in the guide the issue runs now (an earlier version's), together. */
  | { kind: "retired"; count: number }
  /** Interviews saved before pages were recorded (their history is sealed). */
  | { kind: "unrecorded"; count: number };

export interface IssueUsage {
  issueId: number;
  issueName: string;
  countryName: string;
  totals: UsageCounts;
  months: MonthUsage[];
  languages: LanguageUsage[];
  stopPages: StopPage[];
  /** How many unfinished interviews the stop pages count. */
  unfinished: number;
}

/** "Check your answers" as a page an interview is at (no guide page has an empty name). */
export const CHECK_ANSWERS_PAGE = "";
