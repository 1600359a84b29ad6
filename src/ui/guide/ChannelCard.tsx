import { memo } from "react"
import type { GuideChannel } from "../../machines/guide/guideSelectors.ts"
import type { ReminderControls } from "../reminders/ProgrammeReminder.tsx"
import { CatchUp } from "./CatchUp.tsx"
import * as styles from "./ChannelList.css.ts"
import { ProgrammeItem } from "./ProgrammeItem.tsx"

interface ChannelCardProps {
  readonly channel: GuideChannel
  readonly timeZone: string
  readonly headingId: string
  readonly reminders: ReminderControls
}

/**
 * One channel and its programmes. The list re-renders on every scroll event; a channel only when
 * its programmes or the viewer's reminders change (a day chosen, the clock's tick, a reminder set),
 * so scrolling costs no programme renders.
 */
export const ChannelCard = memo(({ channel, timeZone, headingId, reminders }: ChannelCardProps) => (
  <section className={styles.channel} aria-labelledby={headingId}>
    <div className={styles.heading}>
      <h2 id={headingId} className={styles.name}>
        {channel.name}
      </h2>
      {channel.catchUp.length === 0 ? null : <CatchUp channel={channel.name} programmes={channel.catchUp} timeZone={timeZone} />}
    </div>
    <ul className={styles.programmes} aria-labelledby={headingId}>
      {channel.programmes.map((programme) => (
        <ProgrammeItem key={programme.key} programme={programme} channel={channel.name} timeZone={timeZone} reminders={reminders} />
      ))}
    </ul>
  </section>
))
