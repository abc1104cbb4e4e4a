import { zipSync, strToU8 } from "fflate";
import type { Db } from "../../db/database";
import { database } from "~/db.server";
import { getUserById } from "~/auth/accounts.server";
import { refuseCostlyUse } from "~/auth/rate-limit.server";
import { recoveryCodesLeft } from "~/auth/recovery-codes.server";
import { documentMessages, interviewDocument, type InterviewDocument } from "~/documents/documents.server";
import { listAttachments } from "~/interviews/attachments.server";
import { interviewsForExport } from "~/interviews/interviews.server";
import { signingForExport } from "~/signing/requests.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { attachmentStorage } from "~/storage/configured-storage.server";
import { accountTranslator } from "~/auth/emails.server";
import { messageRef } from "~/i18n/translator";
import { logger } from "~/observability/log.server";

const log = logger("my data");

/** Why something is not in the zip: references, put into words in the README in the person's language. */
export const myDataMessages = {
  documentLimited: messageRef("account.myData.documentLimited"),
} as const;

export interface MyDataOptions {
  db?: Db;
  storage?: AttachmentStorage;
  /** The client address the documents' rate limit counts against. */
  address: string;
  /** How a Completed interview's document is made (app/documents); replaced in tests that make a document fail. */
  document?: (userId: string, interviewId: string) => Promise<InterviewDocument>;
}

/** A folder or file name for the zip: no path separators, control or reserved characters. */
function safeName(name: string, fallback: string): string {
  return name.replace(/[\x00-\x1f/\\:*?"<>|]+/g, "_").replace(/^[.\s]+/, "").trim().slice(0, 100) || fallback;
}

function unique(name: string, taken: Set<string>): string {
  const dot = name.lastIndexOf(".");
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
  let candidate = name;
  for (let n = 2; taken.has(candidate); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate);
  return candidate;
}

const json = (value: unknown) => strToU8(JSON.stringify(value, null, 2) + "\n");

/**
 * "Download my data": a zip of everything the product keeps about a person that is theirs to take
 * (docs/decisions/0023-my-data.md): profile.json (no password hash, authenticator secret or recovery-code
 * hashes), interviews.json and, per interview, its answers as A2J JSON and ANX and, when Completed, its
 * document; uploaded files under files/ with files.json; README.txt saying what is there and what could not
 * be made. Each document counts against the documents' limit, as a download from My interviews does; one
 * that cannot be made (or is past the limit) is listed in the README instead of failing the whole download.
 * Null when the person no longer exists.
 */
export async function myDataZip(userId: string, options: MyDataOptions): Promise<{ bytes: Uint8Array; fileName: string } | null> {
  const db = options.db ?? database();
  const storage = options.storage ?? attachmentStorage();
  const makeDocument = options.document ?? ((owner, id) => interviewDocument(owner, id, { db, storage }));
  const user = await getUserById(userId, db);
  if (!user) return null;
  // The README is written in the person's language (their account's), as their emails are.
  const t = accountTranslator(user);
  const entries: Record<string, Uint8Array> = {};
  const notes: string[] = [];
  const exportedAt = new Date().toISOString();

  entries["profile.json"] = json({
    firstName: user.first_name,
    lastName: user.last_name,
    email: user.email,
    phone: { country: user.phone_country, code: user.phone_code, number: user.phone_number },
    emailVerifiedAt: user.email_verified_at,
    twoFactorEnabled: user.two_factor_enabled === 1,
    recoveryCodesLeft: await recoveryCodesLeft(user.id, db),
    createdAt: user.created_at,
    updatedAt: user.updated_at,
  });

  const folders = new Set<string>();
  const interviews = [];
  for (const [index, interview] of (await interviewsForExport(user.id, db)).entries()) {
    const folder = `interviews/${unique(safeName(`${index + 1} ${interview.issueName}`, `${index + 1}`), folders)}`;
    const files: string[] = [];
    if (interview.answers) {
      entries[`${folder}/answers.json`] = json(interview.answers.json);
      entries[`${folder}/answers.anx`] = strToU8(interview.answers.anx);
      files.push("answers.json", "answers.anx");
    } else notes.push(t.t("account.myData.readme.answersUnreadable", { folder }));
    if (interview.status === "Completed" && interview.answers) {
      const made = await documentOf(user.id, interview.id, options.address, db, makeDocument);
      if (made.kind === "file") {
        const name = safeName(made.fileName, "document");
        entries[`${folder}/${name}`] = made.bytes;
        files.push(name);
      } else if (made.kind === "unavailable") notes.push(t.t("account.myData.readme.noDocument", { folder, reason: t.message(made.message) }));
    }
    // Signing (docs/decisions/0055): who was asked, who signed, waited or declined, and the signed document.
    const signing = await signingForExport(user.id, interview.id, db);
    if (signing.requests.length) {
      entries[`${folder}/signing.json`] = json(signing.requests);
      files.push("signing.json");
    }
    if (signing.signed) {
      const zip = signing.signed[0] === 0x50 && signing.signed[1] === 0x4b;
      entries[`${folder}/signed.${zip ? "zip" : "pdf"}`] = signing.signed;
      files.push(`signed.${zip ? "zip" : "pdf"}`);
    }
    interviews.push({
      id: interview.id,
      issue: interview.issueName,
      status: interview.status,
      createdAt: interview.createdAt,
      updatedAt: interview.updatedAt,
      folder,
      files,
    });
  }
  entries["interviews.json"] = json(interviews);

  const fileNames = new Set<string>();
  const uploads = [];
  for (const file of await listAttachments(user.id, db)) {
    const bytes = await storage.get(file.storageKey).catch((error: Error) => {
      log.error(`attachment ${file.id} could not be read`, { err: error });
      return null;
    });
    const name = `files/${unique(safeName(file.fileName, file.id), fileNames)}`;
    if (bytes) entries[name] = new Uint8Array(bytes);
    else notes.push(t.t("account.myData.readme.fileMissing", { path: name }));
    uploads.push({
      id: file.id,
      name: file.fileName,
      contentType: file.contentType,
      size: file.size,
      uploadedAt: file.createdAt,
      interviewId: file.interviewId,
      path: bytes ? name : null,
    });
  }
  entries["files.json"] = json(uploads);

  entries["README.txt"] = strToU8(
    [
      t.t("account.myData.readme.title", { site: t.t("site.name"), email: user.email, when: exportedAt }),
      "",
      `profile.json     ${t.t("account.myData.readme.profile")}`,
      `interviews.json  ${t.t("account.myData.readme.interviews")}`,
      `interviews/      ${t.t("account.myData.readme.folders")}`,
      `files.json       ${t.t("account.myData.readme.files")}`,
      `signing.json     ${t.t("account.myData.readme.signing")}`,
      "",
      notes.length ? t.t("account.myData.readme.problems") : t.t("account.myData.readme.complete"),
      ...notes.map((note) => `- ${note}`),
      "",
    ].join("\r\n"),
  );
  // Documents and uploads are compressed already; the JSON and ANX are small.
  return { bytes: zipSync(entries, { level: 1 }), fileName: `My data ${exportedAt.slice(0, 10)}.zip` };
}

async function documentOf(
  userId: string,
  interviewId: string,
  address: string,
  db: Db,
  make: (userId: string, interviewId: string) => Promise<InterviewDocument>,
): Promise<InterviewDocument> {
  const refused = await refuseCostlyUse("documents", userId, address, db);
  if (refused) return { kind: "unavailable", message: myDataMessages.documentLimited };
  try {
    return await make(userId, interviewId);
  } catch (error) {
    log.error(`the document of interview ${interviewId} failed`, { err: error });
    return { kind: "unavailable", message: documentMessages.failed };
  }
}
