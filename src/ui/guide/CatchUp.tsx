import { Link } from "react-router-dom"
import type { GuideProgramme } from "../../machines/guide/guideSelectors.ts"
import { visuallyHidden } from "../shared/controls.css.ts"
import * as styles from "./CatchUp.css.ts"
import { clockTime } from "./guideFormat.ts"

interface CatchUpProps {
  readonly channel: string
  readonly programmes: ReadonlyArray<GuideProgramme>
  readonly timeZone: string
}

/** A channel's programmes that are over but still held from their start: each opens the TV player there. */
export const CatchUp = ({ channel, programmes, timeZone }: CatchUpProps) => (
  <div className={styles.catchUp}>
    <p className={styles.title}>Missed it? Watch from the start</p>
    <ul className={styles.list}>
      {programmes.map((programme) =>
        programme.startOver === null ? null : (
          <li key={programme.key}>
            <Link to={programme.startOver} className={styles.link}>
              <time dateTime={programme.start}>{clockTime(programme.start, timeZone)}</time> {programme.title}
              <span className={visuallyHidden}>, from the start on {channel}</span>
            </Link>
          </li>
        )
      )}
    </ul>
  </div>
)
