import type { SnapshotFrom } from "xstate"
import { programmeKey, type Reminder } from "../../domain/Reminder.ts"
import type { ReminderDraft, remindersMachine } from "./remindersMachine.ts"

export type RemindersSnapshot = SnapshotFrom<typeof remindersMachine>
export type RemindersStatus = "loading" | "failed" | "empty" | "loaded"

export const selectStatus = (snapshot: RemindersSnapshot): RemindersStatus =>
  snapshot.hasTag("loading")
    ? "loading"
    : snapshot.hasTag("failed")
      ? "failed"
      : snapshot.context.reminders.length === 0
        ? "empty"
        : "loaded"
export const selectError = (snapshot: RemindersSnapshot): string | null => (snapshot.hasTag("failed") ? snapshot.context.error : null)
export const selectReminders = (snapshot: RemindersSnapshot): ReadonlyArray<Reminder> => snapshot.context.reminders
/** The open "Remind me" dialog, or null. */
export const selectDraft = (snapshot: RemindersSnapshot): ReminderDraft | null => snapshot.context.draft
export const selectIsSetting = (snapshot: RemindersSnapshot): boolean => snapshot.hasTag("setting")
/** The reminder on its way out, or null. */
export const selectRemoving = (snapshot: RemindersSnapshot): number | null => snapshot.context.removing

const byProgramme = new WeakMap<ReadonlyArray<Reminder>, ReadonlyMap<string, Reminder>>()

/** The viewer's reminders by programme (stream and start), for the guide's tiles; the same map while the list is the same. */
export const selectByProgramme = (snapshot: RemindersSnapshot): ReadonlyMap<string, Reminder> => {
  const { reminders } = snapshot.context
  let found = byProgramme.get(reminders)
  if (found === undefined) {
    found = new Map(reminders.map((reminder) => [programmeKey(reminder.streamId, reminder.startTime), reminder]))
    byProgramme.set(reminders, found)
  }
  return found
}
