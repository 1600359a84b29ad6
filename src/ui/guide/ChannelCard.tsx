import { memo } from "react"
import type { GuideChannel } from "../../machines/guide/guideSelectors.ts"
import * as styles from "./ChannelList.css.ts"
import { ProgrammeItem } from "./ProgrammeItem.tsx"

interface ChannelCardProps {
  readonly channel: GuideChannel
  readonly timeZone: string
  readonly headingId: string
}

/**
 * One channel and its programmes. The list re-renders on every scroll event; a channel only when
 * its programmes change (a day chosen, the clock's tick), so scrolling costs no programme renders.
 */
export const ChannelCard = memo(({ channel, timeZone, headingId }: ChannelCardProps) => (
  <section className={styles.channel} aria-labelledby={headingId}>
    <h2 id={headingId} className={styles.name}>
      {channel.name}
    </h2>
    <ul className={styles.programmes} aria-labelledby={headingId}>
      {channel.programmes.map((programme) => (
        <ProgrammeItem key={programme.key} programme={programme} channel={channel.name} timeZone={timeZone} />
      ))}
    </ul>
  </section>
))
