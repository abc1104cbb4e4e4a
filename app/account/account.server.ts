import type { Db } from "../../db/database";
import { database } from "~/db.server";
import type { FieldError } from "~/auth/accounts.server";
import { hashPassword, verifyPassword } from "~/auth/crypto.server";
import { countAttempt, limits } from "~/auth/rate-limit.server";
import { endOtherSessions, type Session } from "~/auth/session.server";

export const accountMessages = {
  profileUpdated: "Profile updated.",
  passwordUpdated: "Password updated",
  wrongCurrentPassword: "The current password is invalid.",
} as const;

export async function updateProfile(
  userId: string,
  names: { firstName: string; lastName: string },
  db: Db = database(),
): Promise<void> {
  await db
    .updateTable("users")
    .set({ first_name: names.firstName, last_name: names.lastName, updated_at: new Date().toISOString() })
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
