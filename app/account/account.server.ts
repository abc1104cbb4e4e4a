import type { Db } from "../../db/database";
import { database } from "~/db.server";
import type { FieldError } from "~/auth/accounts.server";
import { hashPassword, verifyPassword } from "~/auth/crypto.server";
import { countAttempt, limits } from "~/auth/rate-limit.server";
import { endOtherSessions, type Session } from "~/auth/session.server";
import { normalisedPhone } from "~/auth/phone-countries";
import { messageRef } from "~/i18n/translator";

/** Toasts and refusals of the account pages: references, put into words in the page's language (`t.message`). */
export const accountMessages = {
  profileUpdated: messageRef("account.editProfile.updated"),
  passwordUpdated: messageRef("account.changePassword.updated"),
  wrongCurrentPassword: messageRef("account.changePassword.wrongCurrent"),
} as const;

/** The profile's fields as the edit form shows them: names, and the phone number's country and number. */
export async function profileOf(userId: string, db: Db = database()) {
  const row = await db.selectFrom("users").select(["first_name", "last_name", "phone_country", "phone_code", "phone_number"]).where("id", "=", userId).executeTakeFirst();
  if (!row) return null;
  // Stored in E.164 (app/auth/phone-countries.ts): shown without the country's code, which the selector holds.
  const national = row.phone_number.startsWith(row.phone_code) ? row.phone_number.slice(row.phone_code.length) : row.phone_number;
  return { firstName: row.first_name, lastName: row.last_name, phoneCountry: row.phone_country, phoneNumber: national };
}

/** Saves the names and the phone number (normalised as at sign-up). */
export async function updateProfile(
  userId: string,
  profile: { firstName: string; lastName: string; phoneCountry: string; phoneNumber: string },
  db: Db = database(),
): Promise<void> {
  const phone = normalisedPhone(profile.phoneCountry, profile.phoneNumber);
  await db
    .updateTable("users")
    .set({
      first_name: profile.firstName,
      last_name: profile.lastName,
      ...(phone ? { phone_country: phone.country.code, phone_code: phone.country.phoneCode, phone_number: phone.e164 } : {}),
      updated_at: new Date().toISOString(),
    })
    .where("id", "=", userId)
    .execute();
}

/** Changes the password after checking the current one; the user's other sessions end. */
export async function changePassword(
  userId: string,
  current: string,
  next: string,
  session: Session | null,
  db: Db = database(),
): Promise<FieldError | null> {
  await countAttempt([[`change-password:account:${userId}`, limits.signInPerAccount]], db);
  const user = await db.selectFrom("users").select("password_hash").where("id", "=", userId).executeTakeFirst();
  if (!user?.password_hash || !(await verifyPassword(current, user.password_hash))) {
    return { field: "currentPassword", message: accountMessages.wrongCurrentPassword, status: 400 };
  }
  await db
    .updateTable("users")
    .set({ password_hash: await hashPassword(next), updated_at: new Date().toISOString() })
    .where("id", "=", userId)
    .execute();
  await endOtherSessions(userId, session, db);
  return null;
}
