import { z } from "zod";
import { MAX_REMINDER_DAYS } from "./limits";

/** The administration's reminder setting: days to wait (1 to 90), or 0 for none. Administration pages are in English. */
export const reminderSettingsSchema = z.object({
  days: z
    .string({ error: "Enter the number of days, or 0 to turn reminders off." })
    .trim()
    .regex(/^\d{1,3}$/, { error: `Enter a whole number of days from 0 to ${MAX_REMINDER_DAYS}.` })
    .transform(Number)
    .refine((days) => days <= MAX_REMINDER_DAYS, { error: `Enter a whole number of days from 0 to ${MAX_REMINDER_DAYS}.` }),
});
