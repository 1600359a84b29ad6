/** Notifications close by themselves after this long (SPEC §9). */
export const NOTIFICATION_AUTO_CLOSE_MS = 4000
/** At most this many are shown; a new one pushes out the oldest. */
export const NOTIFICATION_MAX = 5
