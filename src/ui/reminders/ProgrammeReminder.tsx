import { programmeKey, type Reminder } from "../../domain/Reminder.ts"
import type { RemindableProgramme } from "../../machines/reminders/remindersMachine.ts"
import { button } from "../shared/controls.css.ts"
import * as styles from "./ProgrammeReminder.css.ts"
import { reminderTime } from "./reminderFormat.ts"

/** What a programme of the guide needs to offer and show reminders: the viewer's, and what to do. */
export interface ReminderControls {
  readonly byProgramme: ReadonlyMap<string, Reminder>
  /** the reminder being removed */
  readonly removing: number | null
  readonly ask: (programme: RemindableProgramme) => void
  readonly remove: (id: number) => void
}

interface ProgrammeReminderProps {
  readonly controls: ReminderControls
  readonly programme: { readonly streamId: number | null; readonly start: string; readonly title: string; readonly remindable: boolean }
  readonly channel: string
  readonly timeZone: string
}

/** "Remind me" on a programme not yet started, or "Reminder set · 7:50 PM" with a way to remove it. */
export const ProgrammeReminder = ({ controls, programme, channel, timeZone }: ProgrammeReminderProps) => {
  const { streamId, start, title } = programme
  const reminder = streamId === null ? undefined : controls.byProgramme.get(programmeKey(streamId, start))
  if (reminder !== undefined) {
    const removing = controls.removing === reminder.id
    return (
      <div className={styles.set}>
        <p className={styles.status}>
          {reminder.state === "sent" ? "Reminder sent" : "Reminder set"} · {reminderTime(reminder.remindAt, timeZone)}
        </p>
        <button
          type="button"
          className={`${button({ tone: "ghost" })} ${styles.small}`}
          aria-label={`Remove the reminder for ${title}`}
          aria-disabled={removing || controls.removing !== null || undefined}
          onClick={() => {
            if (controls.removing === null) controls.remove(reminder.id)
          }}
        >
          {removing ? "Removing…" : "Remove"}
        </button>
      </div>
    )
  }
  if (!programme.remindable || streamId === null) return null
  return (
    <button
      type="button"
      className={`${button({ tone: "secondary" })} ${styles.small}`}
      aria-label={`Remind me of ${title} on ${channel}`}
      aria-haspopup="dialog"
      onClick={() => controls.ask({ streamId, startTime: start, title, channel })}
    >
      Remind me
    </button>
  )
}
