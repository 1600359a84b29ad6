import { LEAD_MINUTES, leadLabel } from "../../domain/Reminder.ts"
import type { ReminderDraft } from "../../machines/reminders/remindersMachine.ts"
import { button } from "../shared/controls.css.ts"
import { ModalDialog } from "../shared/ModalDialog.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./Reminders.css.ts"
import { startText } from "./reminderFormat.ts"

interface ReminderDialogProps {
  readonly draft: ReminderDraft | null
  readonly setting: boolean
  readonly timeZone: string
  readonly onLead: (minutes: (typeof LEAD_MINUTES)[number]) => void
  readonly onSet: () => void
  readonly onCancel: () => void
}

/** "Remind me": how long before the start to mail the viewer (10 minutes unless they choose), then set. */
export const ReminderDialog = ({ draft, setting, timeZone, onLead, onSet, onCancel }: ReminderDialogProps) => (
  <ModalDialog
    open={draft !== null}
    title="Remind me"
    description={
      draft === null
        ? undefined
        : `${draft.programme.title} on ${draft.programme.channel}, ${startText(draft.programme.startTime, timeZone)}.`
    }
    onClose={onCancel}
    actions={
      <>
        <button
          type="button"
          className={button({ tone: "primary" })}
          aria-disabled={setting || undefined}
          onClick={() => {
            if (!setting) onSet()
          }}
        >
          {setting ? "Setting…" : "Set reminder"}
        </button>
        <button type="button" className={button({ tone: "secondary" })} onClick={onCancel}>
          Cancel
        </button>
      </>
    }
  >
    {draft === null ? null : (
      <>
        <fieldset className={styles.leads}>
          <legend className={styles.legend}>Email me</legend>
          {LEAD_MINUTES.map((minutes) => (
            <label key={minutes} className={styles.lead}>
              <input type="radio" name="reminder-lead" checked={draft.leadMinutes === minutes} onChange={() => onLead(minutes)} />
              {leadLabel(minutes)}
            </label>
          ))}
        </fieldset>
        {draft.error === null ? null : (
          <p className={surfaces.alert} role="alert">
            {draft.error}
          </p>
        )}
      </>
    )}
  </ModalDialog>
)
