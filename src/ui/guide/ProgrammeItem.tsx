import { Link } from "react-router-dom"
import type { GuideProgramme } from "../../machines/guide/guideSelectors.ts"
import { ProgrammeReminder, type ReminderControls } from "../reminders/ProgrammeReminder.tsx"
import { button, visuallyHidden } from "../shared/controls.css.ts"
import { Icon } from "../shared/Icon.tsx"
import { clockTime } from "./guideFormat.ts"
import * as styles from "./ProgrammeItem.css.ts"

interface ProgrammeItemProps {
  readonly programme: GuideProgramme
  readonly channel: string
  readonly timeZone: string
  /** Search results say which day and channel; a channel's own list needs neither. */
  readonly found?: { readonly day: string }
  /** The viewer's reminders, and setting and removing them. */
  readonly reminders: ReminderControls
}

/**
 * One programme: its times, LIVE while it airs (with how far it has run), title, subtitle, Watch,
 * Watch from the start while the channel still holds its start, and Remind me before it starts.
 */
export const ProgrammeItem = ({ programme, channel, timeZone, found, reminders }: ProgrammeItemProps) => (
  <li className={programme.live ? `${styles.programme} ${styles.live}` : styles.programme}>
    <p className={styles.when}>
      {programme.live ? <span className={styles.liveBadge}>LIVE</span> : null}
      {found === undefined ? null : <span className={styles.day}>{found.day}</span>}
      <span className={styles.times}>
        <time dateTime={programme.start}>{clockTime(programme.start, timeZone)}</time>
        <span aria-hidden="true"> – </span>
        <span className={visuallyHidden}> to </span>
        <time dateTime={programme.end}>{clockTime(programme.end, timeZone)}</time>
      </span>
    </p>
    {found === undefined ? null : <p className={styles.channel}>{channel}</p>}
    <p className={styles.title}>{programme.title}</p>
    {programme.subtitle === "" ? null : <p className={styles.subtitle}>{programme.subtitle}</p>}
    {programme.live ? (
      <div className={styles.progress} aria-hidden="true">
        <div className={styles.progressDone} style={{ transform: `scaleX(${programme.progress})` }} />
      </div>
    ) : null}
    {programme.watch === null && programme.startOver === null && !programme.remindable && programme.streamId === null ? null : (
      <div className={styles.actions}>
        {programme.watch === null ? null : (
          <Link
            to={programme.watch}
            className={`${button({ tone: "primary" })} ${styles.watch}`}
            aria-label={`Watch ${programme.title} on ${channel}`}
          >
            <Icon name="play" size={14} />
            Watch
          </Link>
        )}
        {programme.startOver === null ? null : (
          <Link
            to={programme.startOver}
            className={`${button({ tone: "secondary" })} ${styles.watch}`}
            aria-label={`From the start: watch ${programme.title} on ${channel}`}
          >
            <Icon name="replay" size={14} />
            From the start
          </Link>
        )}
        <ProgrammeReminder controls={reminders} programme={programme} channel={channel} timeZone={timeZone} />
      </div>
    )}
  </li>
)
