import type { Generated, Insertable, Selectable } from "kysely";

/**
 * Tables of the database. Timestamps are ISO-8601 UTC strings written by the application, so the same
 * queries and comparisons hold on SQLite and PostgreSQL (docs/decisions/0003-portable-schema.md).
 */
export interface Database {
  categories: CategoriesTable;
  issues: IssuesTable;
  home_content: HomeContentTable;
  legal_documents: LegalDocumentsTable;
  outbox_messages: OutboxMessagesTable;
  users: UsersTable;
  sessions: SessionsTable;
  auth_tokens: AuthTokensTable;
  rate_limits: RateLimitsTable;
  recovery_codes: RecoveryCodesTable;
  application_keys: ApplicationKeysTable;
  signing_certificates: SigningCertificatesTable;
  interviews: InterviewsTable;
  guides: GuidesTable;
  guide_versions: GuideVersionsTable;
  guide_version_files: GuideVersionFilesTable;
  guide_scenarios: GuideScenariosTable;
  guide_scenario_runs: GuideScenarioRunsTable;
  attachments: AttachmentsTable;
  attachment_files: AttachmentFilesTable;
  audit_events: AuditEventsTable;
  ai_calls: AiCallsTable;
  usage_events: UsageEventsTable;
  sources: SourcesTable;
  passages: PassagesTable;
  content_versions: ContentVersionsTable;
  helper_limits: HelperLimitsTable;
  interview_shares: InterviewSharesTable;
  share_replies: ShareRepliesTable;
  share_views: ShareViewsTable;
  prepared_interviews: PreparedInterviewsTable;
  site_settings: SiteSettingsTable;
  content_translations: ContentTranslationsTable;
  kept_posts: KeptPostsTable;
  interview_reminders: InterviewRemindersTable;
  signing_requests: SigningRequestsTable;
  signers: SignersTable;
  api_tokens: ApiTokensTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}

/** The organisation's API tokens (migration 0031): only the SHA-256 of each is kept. */
export interface ApiTokensTable {
  id: string;
  name: string;
  /** The token's first characters ("lsh_" and four more), to tell tokens apart in the list. */
  prefix: string;
  /** SHA-256 of the whole token (base64url). */
  token_hash: string;
  /** Space-separated scopes. */
  scopes: string;
  /** The administrator the token acts for. */
  created_by: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  use_count: Generated<number>;
}

/** An address the organisation's systems receive signed events at (migration 0032, docs/decisions/0057). */
export interface WebhookEndpointsTable {
  id: string;
  url: string;
  description: string;
  /** JSON array of event types. */
  events: string;
  /** whsec_…, sealed. */
  secret: string;
  /** The secret before the last rotation, sealed: deliveries are signed with both until previous_until. */
  previous_secret: string | null;
  previous_until: string | null;
  enabled: number;
  created_at: string;
  updated_at: string;
}

export type WebhookDeliveryStatus = "pending" | "delivered" | "failed";

/** One event for one endpoint; its id is the webhook-id every attempt carries. */
export interface WebhookDeliveriesTable {
  id: string;
  endpoint_id: string;
  event_type: string;
  payload: string;
  status: WebhookDeliveryStatus;
  tries: number;
  attempts: number;
  next_attempt_at: string;
  give_up_at: string;
  lease_until: string | null;
  lease_token: string | null;
  created_at: string;
  delivered_at: string | null;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempted_at: string;
  status_code: number | null;
  error: string | null;
  response: string | null;
  duration_ms: number;
}

/** A completed interview's documents sent for signing (migration 0029, docs/decisions/0055). */
export interface SigningRequestsTable {
  id: string;
  interview_id: string;
  user_id: string;
  status: "open" | "complete" | "replaced";
  language: string;
  created_at: string;
  completed_at: string | null;
  /** Sealed: the final PDF, base64. */
  signed_pdf: string | null;
  signed_sha256: string | null;
}

/** One signature place of a request and who signs it (migration 0029). Sealed: name, email, typed_name, drawing, decline_reason, address. */
export interface SignersTable {
  id: string;
  request_id: string;
  position: number;
  role: string;
  status: "waiting" | "signed" | "declined";
  name: string;
  email: string;
  link_hash: string | null;
  link_expires_at: string | null;
  code_hash: string | null;
  code_expires_at: string | null;
  code_attempts: Generated<number>;
  visit_hash: string | null;
  visit_expires_at: string | null;
  method: "typed" | "drawn" | null;
  typed_name: string | null;
  drawing: string | null;
  signed_at: string | null;
  declined_at: string | null;
  decline_reason: string | null;
  address: string | null;
}

/** "Email me if I have not finished": one per interview, sent once by housekeeping (migration 0027). */
export interface InterviewRemindersTable {
  interview_id: string;
  user_id: string;
  /** The catalogue the email is written in. */
  language: string;
  /** SHA-256 of the emailed stop link's code (made when it is sent). */
  stop_hash: string | null;
  created_at: string;
  due_at: string;
  /** When an instance took it to send (a lease: another may take it again once the lease is over). */
  claimed_at: string | null;
  sent_at: string | null;
  stopped_at: string | null;
}

/** Content published in a language other than the default, and interface corrections (migration 0022). */
export interface ContentTranslationsTable {
  /** "country", "issue", "home", "legal" (translated fields) or "strings" (interface words). */
  kind: string;
  item_key: string;
  language: string;
  /** JSON: the fields (a translation) or the messages by key (strings). */
  body: string;
}

/** The organisation's settings that are not content (migration 0021). */
export interface SiteSettingsTable {
  key: string;
  /** JSON. */
  value: string;
  updated_at: string;
}

export interface CategoriesTable {
  id: number;
  name: string;
  sort_order: number;
  /** "DMY" or "MDY" (app/a2j/dates.ts). */
  date_order: Generated<string>;
  /** "long" or "numeric". */
  date_style: Generated<string>;
  /** "latin" or "native": the digits of dates in a language that has its own (migration 0025). */
  date_digits: Generated<string>;
}

export interface IssuesTable {
  id: number;
  category_id: number;
  name: string;
  content: string;
  guide_id: string | null;
  guide_path: string | null;
  model_ai: string;
  rephrase_content: string;
  /** JSON array of variable names whose long-text questions offer "Rephrase with AI". */
  rephrase_variables: Generated<string>;
  /** 0 or 1: the issue's page offers a quick exit and it is left out of the page's description for search engines. */
  sensitive: Generated<number>;
}

export interface HomeContentTable {
  id: number;
  headline: string;
  sub_headline: string;
  body_copy: string;
}

export interface LegalDocumentsTable {
  /** "terms", "privacy" or "about". */
  slug: string;
  name: string;
  content: string;
}

/** Every saved version of an editable item, of every kind (db/content-versions.ts, migration 0011). */
export interface ContentVersionsTable {
  /** "country", "issue", "home" or "legal". */
  kind: string;
  /** The item: a country's or issue's id, "home", or a legal document's slug. */
  item_key: string;
  /** 1, 2, … per item. */
  version: number;
  status: ContentVersionStatus;
  source: ContentVersionSource;
  /** JSON of the item's editable fields (ContentBody in db/content-versions.ts). */
  body: string;
  author_id: string | null;
  author_email: string;
  created_at: string;
  /** A draft published as it was saved: when, and by whom (null for a version saved published). */
  published_at: string | null;
  published_by_email: string | null;
}

export type ContentVersionStatus = "draft" | "published" | "deleted";
/** Who made a version: the seed is the only source db:seed may overwrite. */
export type ContentVersionSource = "administrator" | "command line" | "seed";

export interface OutboxMessagesTable {
  id: string;
  created_at: string;
  from_address: string;
  to_address: string;
  reply_to: string | null;
  subject: string;
  html: string;
  text: string;
}

export interface UsersTable {
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  email_key: string;
  phone_country: string;
  phone_code: string;
  phone_number: string;
  password_hash: string | null;
  email_verified_at: string | null;
  /** Sealed with the data keyring at users.totp_secret:<id> (app/auth/two-factor-secrets.server.ts), never in clear. */
  totp_secret: string | null;
  /** 0 or 1: booleans are integers on both databases. */
  two_factor_enabled: number;
  totp_last_step: number | null;
  /** "person", "helper" or "administrator". */
  role: Generated<UserRole>;
  /** The language the person chose (a tag of app/i18n/languages.ts), null until they choose. */
  language: string | null;
  /** 0 or 1: a new interview offers the answers of the person's other interviews and profile (migration 0026). */
  offer_reused_answers: Generated<number>;
  created_at: string;
  updated_at: string;
}

export type UserRole = "person" | "helper" | "administrator";

/** What a helper may help with (migration 0020): a country, an issue, or (neither) every country and issue. */
export interface HelperLimitsTable {
  user_id: string;
  country_id: number | null;
  issue_id: number | null;
}

export type ShareStatus = "new" | "taken" | "closed";

/** An interview shared with the helpers until `expires_at`, or until the person stops (`ended_at`). */
export interface InterviewSharesTable {
  id: string;
  interview_id: string;
  owner_id: string;
  /** 0 or 1 each: what the person chose to share. */
  answers: number;
  documents: number;
  files: number;
  /** Sealed (app/help/shares.server.ts); null without a message. */
  message: string | null;
  language: string;
  status: Generated<ShareStatus>;
  taken_by: string | null;
  taken_by_name: string | null;
  taken_at: string | null;
  closed_at: string | null;
  created_at: string;
  expires_at: string;
  ended_at: string | null;
}

export interface ShareRepliesTable {
  id: string;
  share_id: string;
  helper_id: string | null;
  helper_name: string;
  /** Sealed. */
  body: string;
  /** Sealed JSON { page, label }: the page the reply is about; null for the whole interview. */
  about: string | null;
  created_at: string;
  read_at: string | null;
}

export type ShareViewWhat = "request" | "answers" | "document" | "file";

export interface ShareViewsTable {
  id: string;
  share_id: string;
  helper_id: string | null;
  helper_name: string;
  what: ShareViewWhat;
  attachment_id: string | null;
  viewed_at: string;
}

/** An interview a helper started for someone; the interview is the helper's until claimed, then the person's. */
export interface PreparedInterviewsTable {
  interview_id: string;
  helper_id: string | null;
  helper_name: string;
  person_first_name: string;
  person_last_name: string;
  person_email: string;
  /** SHA-256 of the invitation's code; null before the first invitation and after the claim. */
  invitation_hash: string | null;
  invited_at: string | null;
  expires_at: string;
  claimed_at: string | null;
  claimed_by: string | null;
  created_at: string;
}

/** Append-only: the database refuses updates and deletes (migration 0010). */
export interface AuditEventsTable {
  /** In the order written (an identity column): the list's order, also within one millisecond. */
  seq: Generated<number>;
  happened_at: string;
  /** Null for the command line. */
  actor_id: string | null;
  actor_email: string;
  address: string;
  /** What was done, e.g. "role.granted". */
  action: string;
  /** What it was done to, e.g. the account's email. */
  subject: string;
  /** JSON with what else is worth knowing (never a secret, never a person's answers). */
  details: Generated<string>;
}

/** A call to the AI endpoint (migration 0015): no personal text unless transcripts are on, and then sealed. */
export interface AiCallsTable {
  id: string;
  happened_at: string;
  /** "rephrase", "understand" or "document". */
  purpose: string;
  issue_id: number | null;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  /** How it ended, e.g. "answered", "uncited", "timeout". */
  outcome: string;
  /** JSON array of the passage ids the model was given. */
  passages: Generated<string>;
  /** Flesch-Kincaid grade of what was shown, when text was shown. */
  reading_grade: number | null;
  /** Sealed JSON of what was sent and received, only while AI_TRANSCRIPTS is on. */
  transcript: string | null;
}

/**
 * What happened on an issue in a month (migration 0013), written by the database's triggers (started, completed,
 * left) and by the download (downloaded). No interview or person id: it outlives both and points at nobody.
 */
export interface UsageEventsTable {
  seq: Generated<number>;
  issue_id: number;
  /** "YYYY-MM", UTC. */
  month: string;
  kind: UsageEventKind;
  /** For "left" (an unfinished interview deleted): the token of the page it was last on, when known. */
  page: string | null;
  /** The language the interview ran in (migration 0024); null for events counted before. */
  language: Generated<string | null>;
}

export type UsageEventKind = "started" | "completed" | "downloaded" | "left" | "signed";
/** A source of the organisation's (migration 0014): text extracted into passages; the file itself is not kept. */
export interface SourcesTable {
  id: Generated<number>;
  /** A country (categories.id). */
  country_id: number;
  /** Null: for every issue of the country. */
  issue_id: number | null;
  title: string;
  /** Its public address (http or https). */
  url: string;
  file_name: string | null;
  /** "text/markdown", "application/pdf" or the Word type. */
  content_type: string;
  created_by: string | null;
  created_at: string;
  /** The language it is written in (migration 0022): its passages are shown marked with it. */
  language: Generated<string>;
}

/** A passage of a source, indexed for search (FTS5 table passages_fts on SQLite, column search on PostgreSQL). */
export interface PassagesTable {
  id: Generated<number>;
  source_id: number;
  /** Its place in the source, from 1. */
  ordinal: number;
  heading: string | null;
  /** The page of a PDF it starts on. */
  page: number | null;
  text: string;
  /** Its source's language (migration 0023): PostgreSQL's search vector is made with that language's configuration. */
  language: Generated<string>;
}

/** A form posted after its session expired, kept for its account until they sign in again (migration 0028). */
export interface KeptPostsTable {
  id_hash: string;
  user_id: string;
  purpose: string;
  path: string;
  interview_id: string | null;
  /** Sealed JSON of the form's text fields. */
  form: string;
  created_at: string;
  expires_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's random id: a stolen table cannot be replayed as cookies. */
  id_hash: string;
  user_id: string | null;
  pending_user_id: string | null;
  pending_totp_secret: string | null;
  created_at: string;
  expires_at: string;
  last_seen_at: string;
  /** Fresh recovery codes, sealed like the TOTP secret, until the person says they saved them. */
  recovery_codes_to_show: string | null;
}

export interface RecoveryCodesTable {
  /** HMAC-SHA256 of the user id and the code (app/auth/recovery-codes.server.ts): a leaked table is useless. */
  code_hash: string;
  user_id: string;
  created_at: string;
  used_at: string | null;
  /** The application key the hash was made with (application_keys.id); null only before migration 0016. */
  key_id: string | null;
}

/**
 * Keys the application made for itself (app/security/application-keys.server.ts): random bytes, sealed with the
 * data keyring, so they survive a rotation of any secret (docs/decisions/0033-secrets-and-rotation.md).
 */
export interface ApplicationKeysTable {
  /** What the key is for: "recovery-codes", "recovery-codes-earlier", "usage-pages". */
  id: string;
  /** The key's bytes in base64, sealed ("enc1:…") at application_keys.key:<id>. */
  key: string;
  created_at: string;
}

/** The self-signed certificate that seals signed documents when none is configured (app/signing/certificate.server.ts). */
export interface SigningCertificatesTable {
  /** "self-signed". */
  id: string;
  /** The certificate, PEM. */
  certificate: string;
  /** Its private key (PKCS#8 PEM), sealed ("enc1:…") at signing_certificates.private_key:<id>. */
  private_key: string;
  created_at: string;
}

export interface AuthTokensTable {
  id_hash: string;
  user_id: string;
  purpose: "verify-email" | "reset-password";
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface RateLimitsTable {
  bucket: string;
  window_started_at: string;
  hits: number;
}

export type InterviewStatus = "Draft" | "Completed";

export interface InterviewsTable {
  id: string;
  user_id: string;
  issue_id: number;
  status: InterviewStatus;
  /** A2J answers, JSON. */
  vars: string;
  /** The engine's state between requests, JSON. */
  engine_state: string;
  /** The guide version the interview started on and keeps running (migration 0012); null: none recorded. */
  guide_id: string | null;
  guide_version: number | null;
  created_at: string;
  updated_at: string;
  /** A keyed token of the page it is at after its last save (app/usage/page-token.server.ts); null if saved before migration 0013. */
  last_page: Generated<string | null>;
  /** The language it runs in, its guide's when it started (migration 0024): kept, as the guide version is. */
  language: Generated<string>;
}

/** One guide, by its stable id (what issues.guide_id names); its text is in its versions (migration 0012). */
export interface GuidesTable {
  id: string;
  /** The published version's title (the latest upload's until one is published). */
  title: string;
  /** The version that runs for new interviews; null until one is published. */
  published_version: number | null;
  /** The language it is written in, a BCP 47 tag (migration 0024): its A2J `language` on import, or as administrators set it. */
  language: Generated<string>;
  /** The guide it is the same interview as, in another language; null: none (migration 0024). */
  translation_of: Generated<string | null>;
}

export type GuideOrigin = "seed" | "upload" | "command line";

export interface GuideVersionsTable {
  guide_id: string;
  version: number;
  title: string;
  format: "json" | "xml";
  source: string;
  origin: GuideOrigin;
  /** Null for the seed and the command line. */
  uploaded_by_id: string | null;
  uploaded_by_email: string;
  uploaded_at: string;
  published_at: string | null;
  discarded_at: string | null;
  /** The import report, JSON (app/guides/import.server.ts, GuideReport). */
  report: Generated<string>;
  /** The health check's report, JSON (app/guide-checks/health.server.ts); null until checked. */
  health: Generated<string | null>;
}

export interface GuideScenariosTable {
  id: string;
  guide_id: string;
  name: string;
  answers_format: "anx" | "json";
  answers: string;
  /** One expectation a line (docs/a2j-formats.md, "Test scenarios"). */
  expectations: string;
  created_by_email: string;
  created_at: string;
}

export interface GuideScenarioRunsTable {
  scenario_id: string;
  guide_id: string;
  version: number;
  /** 1 or 0. */
  passed: number;
  /** JSON: app/guide-checks/scenarios.ts, ScenarioResult. */
  result: string;
  ran_at: string;
}

export interface GuideVersionFilesTable {
  guide_id: string;
  version: number;
  path: string;
  content_type: string;
  /** base64 */
  content: string;
}

export interface AttachmentsTable {
  id: string;
  user_id: string;
  interview_id: string | null;
  file_name: string;
  content_type: string;
  size: number;
  storage_key: string;
  created_at: string;
}

/** The bytes of an attachment kept by the database storage (app/storage/database-storage.server.ts). */
export interface AttachmentFilesTable {
  attachment_id: string;
  bytes: Buffer;
  written_at: string;
}

export type InterviewRow = Selectable<InterviewsTable>;

export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;

export type Category = Selectable<CategoriesTable>;
export type IssueRow = Selectable<IssuesTable>;
export type NewIssue = Insertable<IssuesTable>;
export type OutboxMessageRow = Selectable<OutboxMessagesTable>;
