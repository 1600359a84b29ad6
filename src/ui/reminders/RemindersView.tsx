import { Link } from "react-router-dom"
import { leadLabel, NO_REMINDERS, type Reminder } from "../../domain/Reminder.ts"
import { remindersMachine } from "../../machines/reminders/remindersMachine.ts"
import { selectError, selectReminders, selectRemoving, selectStatus } from "../../machines/reminders/remindersSelectors.ts"
import { button } from "../shared/controls.css.ts"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { PageView } from "../shared/PageView.tsx"
import { Panel } from "../shared/Panel.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import { CalendarFeedPanel } from "./CalendarFeedPanel.tsx"
import * as styles from "./Reminders.css.ts"
import { reminderTime, startText } from "./reminderFormat.ts"

const stateText = (reminder: Reminder): string =>
  reminder.state === "dropped"
    ? "No longer in the guide: no reminder will be sent"
    : reminder.state === "sent"
      ? `Reminder sent at ${reminderTime(reminder.remindAt)}`
      : `Email at ${reminderTime(reminder.remindAt)}, ${leadLabel(reminder.leadMinutes)}`

/** /reminders: the programmes the viewer asked to be reminded of, each removable, and their calendar feed. */
export const RemindersView = () => {
  const reminders = usePageActor(remindersMachine)
  const { status, error, list, removing } = useSelectors(reminders, {
    status: selectStatus,
    error: selectError,
    list: selectReminders,
    removing: selectRemoving
  })
  return (
    <PageView
      title="Reminders"
      lead={
        <>
          We email you before the programmes you chose start, with a link that plays them (from the start if you are late). Set more from
          the <Link to="/stream-schedule">Stream Schedule</Link>.
        </>
      }
      width="wide"
    >
      <Panel title="Your reminders" busy={status === "loading"}>
        {status === "loading" ? (
          <LoadingPlaceholder label="Loading your reminders…" count={2} height="64px" />
        ) : status === "failed" ? (
          <RetryNotice message={error} onRetry={() => reminders.send({ type: "reminders.retry" })} />
        ) : status === "empty" ? (
          <p className={surfaces.empty()}>{NO_REMINDERS}</p>
        ) : (
          <ul className={styles.list} aria-label="Your reminders">
            {list.map((reminder) => (
              <li key={reminder.id} className={styles.item}>
                <div className={styles.itemText}>
                  <p className={styles.title}>{reminder.title}</p>
                  <p className={styles.meta}>
                    {reminder.channel} · <time dateTime={reminder.startTime}>{startText(reminder.startTime)}</time>
                  </p>
                  <p className={styles.meta}>{stateText(reminder)}</p>
                </div>
                <div className={styles.itemActions}>
                  <button
                    type="button"
                    className={button({ tone: "secondary" })}
                    aria-label={`Remove the reminder for ${reminder.title}`}
                    aria-disabled={removing !== null || undefined}
                    onClick={() => {
                      if (removing === null) reminders.send({ type: "reminder.remove", id: reminder.id })
                    }}
                  >
                    {removing === reminder.id ? "Removing…" : "Remove"}
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Panel>
      <CalendarFeedPanel />
    </PageView>
  )
}
