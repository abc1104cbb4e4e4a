/** The organisation's delay unless it chose another (site setting "reminders"). */
export const DEFAULT_REMINDER_DAYS = 7;
/** The longest delay the administration can set. */
export const MAX_REMINDER_DAYS = 90;
