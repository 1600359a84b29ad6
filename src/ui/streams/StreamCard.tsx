import { useId } from "react"
import { sourceFor, TV_PLAYER } from "../../domain/playerChoice.ts"
import { type PlayerChoice, parseTags, type Stream } from "../../domain/Stream.ts"
import type { NowNextActor } from "../../machines/streams/nowNextMachine.ts"
import { Icon } from "../shared/Icon.tsx"
import { NowNext, useProgrammes } from "../shared/NowNext.tsx"
import { Poster } from "../shared/Poster.tsx"
import * as styles from "./StreamCard.css.ts"
import { TagList } from "./TagList.tsx"

interface StreamCardProps {
  readonly stream: Stream
  readonly player: PlayerChoice
  /** what airs on the grid's streams; undefined until the grid has asked */
  readonly nowNext: NowNextActor | undefined
  readonly onChoose: () => void
}

export const StreamCard = ({ stream, player, nowNext, onChoose }: StreamCardProps) => {
  const titleId = useId()
  const badgeId = useId()
  const lockId = useId()
  const programmesId = useId()
  const programmes = useProgrammes(nowNext, stream.id)
  // each player has its own tags (SPEC §3)
  const tags = parseTags(player === TV_PLAYER ? stream.tags : stream.tags_sldp)
  // nothing for this player to play: choosing it offers a subscription (SPEC §4), so say so first
  const subscribersOnly = sourceFor(stream, player) === null
  const description = [stream.maintenance_mode ? badgeId : null, subscribersOnly ? lockId : null, programmes === null ? null : programmesId]
    .filter((id) => id !== null)
    .join(" ")
  return (
    <article className={styles.card}>
      <button
        type="button"
        className={styles.choose}
        onClick={onChoose}
        aria-labelledby={titleId}
        aria-describedby={description === "" ? undefined : description}
      >
        <span className={styles.media}>
          {/* decorative: the title beside it names the card */}
          <Poster src={stream.image_location} alt="" className={styles.image} iconSize={40} />
          <span className={styles.play} aria-hidden="true">
            <Icon name="play" size={36} />
          </span>
        </span>
        <span id={titleId} className={styles.title}>
          {stream.title}
        </span>
      </button>
      {/* outside the button, whose visible text must stay its name; it describes the button instead */}
      {stream.maintenance_mode ? (
        <span id={badgeId} className={styles.badge}>
          Maintenance
        </span>
      ) : null}
      {subscribersOnly ? (
        <span id={lockId} className={styles.lock}>
          <Icon name="lock" size={14} />
          Subscribers only
        </span>
      ) : null}
      {/* outside too, so the progress bar keeps its role; the button's area still covers it */}
      {programmes === null ? null : (
        <div className={styles.programmes}>
          <NowNext id={programmesId} programmes={programmes} layout="compact" />
        </div>
      )}
      <div className={styles.tags}>
        <TagList tags={tags} />
      </div>
    </article>
  )
}
