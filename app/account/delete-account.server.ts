import type { Db } from "../../db/database";
import { isOnlyAdministrator } from "~/administration/roles.server";
import { config } from "~/config.server";
import { database } from "~/db.server";
import type { FieldError } from "~/auth/accounts.server";
import { accountDeletedEmail } from "~/auth/emails.server";
import { confirmPasswordAndCode } from "~/auth/two-factor-recovery.server";
import { forgetGivenAnswers } from "~/guide-checks/given-answers.server";
import { attachmentKeysOf } from "~/interviews/attachments.server";
import { eraseAddressFromOutbox, sendMail } from "~/mail/mail.server";
import type { AttachmentStorage } from "~/storage/attachment-storage.server";
import { attachmentStorage } from "~/storage/configured-storage.server";
import { messageRef } from "~/i18n/translator";
import { logger } from "~/observability/log.server";
import { queueLiveSharesEnded } from "~/webhooks/queue.server";

const log = logger("account");

export const deleteAccountMessages = {
  onlyAdministrator: messageRef("account.deleteAccount.onlyAdministrator"),
} as const;

/**
 * Deletes a person's account after their password and a current authenticator code (or a recovery code):
 * docs/decisions/0023-my-data.md says what goes and what stays. The security notice is sent first, while the
 * address is still known. Then, in one transaction, the outbox forgets the address (one record of the deletion
 * stays), the rate-limit windows keyed by the person go, and the user row goes, which deletes by cascade their
 * sessions, link tokens, recovery codes, interviews, attachment rows and the files the database storage holds.
 * Last, the files in the storage: a file whose deletion fails is a file without a row, which housekeeping
 * sweeps from a bucket (purgeOrphanedAttachments).
 */
export async function deleteAccount(
  userId: string,
  input: { password: string; code: string },
  address: string,
  { db = database(), storage = attachmentStorage() }: { db?: Db; storage?: AttachmentStorage } = {},
): Promise<FieldError | null> {
  const user = await confirmPasswordAndCode(userId, input, address, db);
  if ("field" in user) return user;
  if (await isOnlyAdministrator(user.id, db)) return { field: "", message: deleteAccountMessages.onlyAdministrator, status: 409 };
  const settings = config();
  await sendMail(accountDeletedEmail(user, settings.PUBLIC_ORIGIN), settings, db);
  const keys = await attachmentKeysOf(user.id, db);
  const emailKey = user.email.trim().toLowerCase();
  await db.transaction().execute(async (trx) => {
    await eraseAddressFromOutbox(user.email, settings, trx);
    // The person's buckets end in their id (a UUID, so no LIKE wildcard) or, before sign-in, their address.
    await trx
      .deleteFrom("rate_limits")
      .where((eb) =>
        eb.or([eb("bucket", "like", `%:${user.id}`), eb("bucket", "in", [`sign-in:account:${emailKey}`, `email:account:${emailKey}`])]),
      )
      .execute();
    // What the person gave to test a guide goes with their interviews.
    const interviews = await trx.selectFrom("interviews").select("id").where("user_id", "=", user.id).execute();
    await forgetGivenAnswers(interviews.map((interview) => interview.id), trx);
    // Shares end with the account: share.ended for each live one (docs/decisions/0057-webhooks.md).
    await queueLiveSharesEnded(
      trx,
      interviews.map((interview) => interview.id),
    );
    await trx.deleteFrom("users").where("id", "=", user.id).execute();
  });
  for (const key of keys) {
    try {
      await storage.delete(key);
    } catch (error) {
      log.error(`a deleted account's file ${key} is left for housekeeping`, { err: error });
    }
  }
  return null;
}
