import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { migrateToLatest } from "../../db/migrate";
import { seedDatabase } from "../../db/seed";
import { createTestDatabase, dialects, insertTestUser, type TestDatabase } from "../../tests/support/databases";
import { commandLineActor } from "~/audit/audit.server";
import { sealInterviewColumns } from "~/interviews/interviews.server";
import type { MailMessage } from "~/mail/mail.server";
import {
  askForReminder,
  DAILY_CAP,
  DEFAULT_REMINDER_DAYS,
  LEASE_MS,
  reminderOffer,
  reminderSettings,
  sendDueReminders,
  setReminderSettings,
  stopLinkState,
  stopReminders,
} from "./reminders.server";

const NOW = new Date("2031-03-01T12:00:00.000Z");
const DAY = 24 * 60 * 60_000;
const later = (ms: number) => new Date(NOW.getTime() + ms);
const ORIGIN = "https://help.example.org";

describe.each(dialects)("reminders on %s", (dialect) => {
  let handle: TestDatabase;
  const alice = randomUUID();
  const bob = randomUUID();
  let outbox: MailMessage[];
  const sending = () => ({ origin: ORIGIN, send: async (message: MailMessage) => void outbox.push(message) });
  const stopCode = (message: MailMessage) => new URL(message.text.match(/https:\/\/\S+\/reminders\/stop\?\S+/)![0]).searchParams.get("code")!;

  async function plantInterview(userId: string, issueId = 2): Promise<string> {
    const id = randomUUID();
    await handle.db
      .insertInto("interviews")
      .values({ id, user_id: userId, issue_id: issueId, status: "Draft", ...sealInterviewColumns(id, { vars: "{}", engine_state: "{}" }), created_at: NOW.toISOString(), updated_at: NOW.toISOString() })
      .execute();
    return id;
  }

  beforeAll(async () => {
    handle = await createTestDatabase(dialect);
    await migrateToLatest(handle.db);
    await seedDatabase(handle.db, "db/seed");
    await insertTestUser(handle.db, alice, "alice@example.org");
    await insertTestUser(handle.db, bob, "bob@example.org");
    await handle.db.updateTable("users").set({ language: "fr" }).where("id", "=", bob).execute();
  });
  afterAll(() => handle?.drop());
  beforeEach(async () => {
    outbox = [];
    await handle.db.deleteFrom("interview_reminders").execute();
    await handle.db.deleteFrom("interviews").execute();
    await handle.db.deleteFrom("site_settings").where("key", "=", "reminders").execute();
  });

  it("sends one reminder after the delay, in the person's language, with links to continue and to stop; never again", async () => {
    const interview = await plantInterview(alice);
    expect(await reminderOffer(interview, handle.db)).toEqual({ kind: "offer", days: DEFAULT_REMINDER_DAYS });
    const asked = await askForReminder(interview, "es", NOW, handle.db);
    expect(asked).toEqual({ dueAt: later(7 * DAY).toISOString() });
    expect(await reminderOffer(interview, handle.db)).toEqual({ kind: "asked", dueAt: asked!.dueAt });

    expect(await sendDueReminders(handle.db, later(7 * DAY - 60_000), sending())).toBe(0);
    expect(await sendDueReminders(handle.db, later(7 * DAY), sending())).toBe(1);
    expect(await sendDueReminders(handle.db, later(8 * DAY), sending())).toBe(0);
    expect(await sendDueReminders(handle.db, later(30 * DAY), sending())).toBe(0);
    expect(outbox).toHaveLength(1);
    const [message] = outbox;
    // Alice chose no language: the page's when she asked.
    expect(message).toMatchObject({ to: "alice@example.org", subject: "Su entrevista aún no está terminada" });
    expect(message!.html).toContain('lang="es"');
    expect(message!.text).toContain(`${ORIGIN}/issues/2/interviews/${interview}`);
    expect(await stopLinkState(stopCode(message!), handle.db)).toBe("active");
    // Mail programs offer their own one-click unsubscribe for it (RFC 8058), to the same stop link.
    expect(message!.headers).toEqual({ "List-Unsubscribe": `<${message!.text.match(/\S+\/reminders\/stop\?code=\S+/)![0]}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" });
    // Once sent, the page after saving offers a new one.
    expect(await reminderOffer(interview, handle.db)).toEqual({ kind: "offer", days: DEFAULT_REMINDER_DAYS });
  });

  it("writes in the account's language, and never names a sensitive issue", async () => {
    const name = (await handle.db.selectFrom("issues").select("name").where("id", "=", 2).executeTakeFirstOrThrow()).name;
    await askForReminder(await plantInterview(bob), "en", NOW, handle.db);
    await sendDueReminders(handle.db, later(8 * DAY), sending());
    expect(outbox[0]).toMatchObject({ to: "bob@example.org", subject: "Votre entrevue n’est pas encore terminée" });
    expect(outbox[0]!.text).toContain(`« ${name} »`);

    await handle.db.updateTable("issues").set({ sensitive: 1 }).where("id", "=", 2).execute();
    try {
      await askForReminder(await plantInterview(alice), "en", NOW, handle.db);
      await sendDueReminders(handle.db, later(8 * DAY), sending());
      expect(outbox[1]!.to).toBe("alice@example.org");
      expect(outbox[1]!.text).not.toContain(name);
      expect(outbox[1]!.text).toContain("You asked us to remind you about an interview you have not finished yet.");
    } finally {
      await handle.db.updateTable("issues").set({ sensitive: 0 }).where("id", "=", 2).execute();
    }
  });

  it("sends none for an interview completed or deleted, and offers none", async () => {
    const completed = await plantInterview(alice);
    const deleted = await plantInterview(bob);
    await askForReminder(completed, "en", NOW, handle.db);
    await askForReminder(deleted, "en", NOW, handle.db);
    await handle.db.updateTable("interviews").set({ status: "Completed" }).where("id", "=", completed).execute();
    await handle.db.deleteFrom("interviews").where("id", "=", deleted).execute();
    expect(await sendDueReminders(handle.db, later(8 * DAY), sending())).toBe(0);
    expect(outbox).toEqual([]);
    expect(await reminderOffer(completed, handle.db)).toBeNull();
    expect(await askForReminder(completed, "en", NOW, handle.db)).toBeNull();
    // The deleted interview's reminder went with it.
    expect(await handle.db.selectFrom("interview_reminders").select("interview_id").execute()).toEqual([{ interview_id: completed }]);
  });

  it(`sends no more than ${DAILY_CAP} a day to one person; the next waits for the next day`, async () => {
    const first = await plantInterview(alice);
    const second = await plantInterview(alice);
    const bobs = await plantInterview(bob);
    await askForReminder(first, "en", NOW, handle.db);
    await askForReminder(second, "en", later(60_000), handle.db);
    await askForReminder(bobs, "en", NOW, handle.db);
    expect(await sendDueReminders(handle.db, later(8 * DAY), sending())).toBe(2);
    expect(outbox.map((m) => m.to).sort()).toEqual(["alice@example.org", "bob@example.org"]);
    expect(await sendDueReminders(handle.db, later(8 * DAY + 12 * 60 * 60_000), sending())).toBe(0);
    expect(await sendDueReminders(handle.db, later(9 * DAY + 60_000), sending())).toBe(1);
    expect(outbox.map((m) => m.to)).toEqual(expect.arrayContaining(["alice@example.org", "alice@example.org"]));
    expect(outbox).toHaveLength(3);
  });

  it("across two instances sending at once, each reminder goes once", async () => {
    const people = await Promise.all(Array.from({ length: 6 }, async (_, i) => {
      const id = randomUUID();
      await insertTestUser(handle.db, id, `p${i}-${id.slice(0, 6)}@example.org`);
      return id;
    }));
    for (const person of people) await askForReminder(await plantInterview(person), "en", NOW, handle.db);
    // A second connection to the same database: another instance.
    const other = await import("../../db/database").then(({ openDatabase }) => openDatabase(handle.url));
    try {
      const at = later(8 * DAY);
      const counts = await Promise.all([sendDueReminders(handle.db, at, sending()), sendDueReminders(other.db, at, sending()), sendDueReminders(handle.db, at, sending())]);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(6);
      expect(outbox).toHaveLength(6);
      expect(new Set(outbox.map((m) => m.to)).size).toBe(6);
    } finally {
      await other.db.destroy();
    }
  });

  it("a claim left by an instance that stopped is taken again once its lease is over; a failed email is retried", async () => {
    const interview = await plantInterview(alice);
    await askForReminder(interview, "en", NOW, handle.db);
    await handle.db.updateTable("interview_reminders").set({ claimed_at: later(8 * DAY).toISOString() }).execute();
    expect(await sendDueReminders(handle.db, later(8 * DAY + LEASE_MS - 60_000), sending())).toBe(0);
    const failing = { origin: ORIGIN, send: async () => Promise.reject(new Error("mail server down")) };
    await expect(sendDueReminders(handle.db, later(8 * DAY + LEASE_MS + 60_000), failing)).rejects.toThrow("mail server down");
    expect(await sendDueReminders(handle.db, later(8 * DAY + LEASE_MS + 120_000), sending())).toBe(1);
    expect(outbox).toHaveLength(1);
  });

  it("the stop link stops the person's reminders not yet sent; a wrong code stops nothing", async () => {
    const first = await plantInterview(alice);
    const second = await plantInterview(alice);
    const bobs = await plantInterview(bob);
    await askForReminder(first, "en", NOW, handle.db);
    await askForReminder(second, "en", later(60_000), handle.db);
    await askForReminder(bobs, "en", later(2 * DAY), handle.db);
    await sendDueReminders(handle.db, later(8 * DAY), sending());
    expect(outbox.map((m) => m.to)).toEqual(["alice@example.org"]);
    const code = stopCode(outbox[0]!);

    expect(await stopLinkState("not-a-code", handle.db)).toBe("unknown");
    expect(await stopReminders("not-a-code", later(8 * DAY), handle.db)).toBe(false);
    expect(await stopReminders(code, later(8 * DAY), handle.db)).toBe(true);
    expect(await stopLinkState(code, handle.db)).toBe("stopped");
    expect(await stopReminders(code, later(8 * DAY), handle.db)).toBe(true);

    expect(await sendDueReminders(handle.db, later(20 * DAY), sending())).toBe(1);
    expect(outbox.map((m) => m.to)).toEqual(["alice@example.org", "bob@example.org"]);
  });

  it("the organisation sets the delay or turns reminders off (then none is offered or sent)", async () => {
    const interview = await plantInterview(alice);
    await setReminderSettings({ days: 3 }, commandLineActor, handle.db);
    expect(await reminderSettings(handle.db)).toEqual({ days: 3 });
    expect(await askForReminder(interview, "en", NOW, handle.db)).toEqual({ dueAt: later(3 * DAY).toISOString() });
    await setReminderSettings({ days: null }, commandLineActor, handle.db);
    expect(await reminderOffer(interview, handle.db)).toBeNull();
    expect(await askForReminder(interview, "en", NOW, handle.db)).toBeNull();
    expect(await sendDueReminders(handle.db, later(4 * DAY), sending())).toBe(0);
    await setReminderSettings({ days: 3 }, commandLineActor, handle.db);
    expect(await sendDueReminders(handle.db, later(4 * DAY), sending())).toBe(1);
    const audit = await handle.db.selectFrom("audit_events").select(["action", "subject"]).where("action", "=", "reminders.changed").orderBy("seq").execute();
    expect(audit.map((row) => row.subject)).toEqual(["3 days", "off", "3 days"]);
  });
});
