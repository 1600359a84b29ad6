import { useId } from "react"
import { parseTags, type PlayerChoice, type Stream } from "../../domain/Stream.ts"
import { TV_PLAYER } from "../../domain/playerChoice.ts"
import { Icon } from "../shared/Icon.tsx"
import * as styles from "./StreamCard.css.ts"
import { TagList } from "./TagList.tsx"

interface StreamCardProps {
  readonly stream: Stream
  readonly player: PlayerChoice
  readonly onChoose: () => void
}

export const StreamCard = ({ stream, player, onChoose }: StreamCardProps) => {
  const titleId = useId()
  // each player has its own tags (SPEC §3)
  const tags = parseTags(player === TV_PLAYER ? stream.tags : stream.tags_sldp)
  return (
    <article className={styles.card}>
      <button type="button" className={styles.choose} onClick={onChoose} aria-labelledby={titleId}>
        <span className={styles.media}>
          <img className={styles.image} src={stream.image_location} alt={stream.title} loading="lazy" decoding="async" />
          <span className={styles.play} aria-hidden="true">
            <Icon name="play" size={36} />
          </span>
          {stream.maintenance_mode ? <span className={styles.badge}>Maintenance</span> : null}
        </span>
        <span id={titleId} className={styles.title}>
          {stream.title}
        </span>
      </button>
      <div className={styles.tags}>
        <TagList tags={tags} />
      </div>
    </article>
  )
}
