import { useId } from "react"
import { parseTags, type PlayerChoice, type Stream } from "../../domain/Stream.ts"
import { TV_PLAYER } from "../../domain/playerChoice.ts"
import { Icon } from "../shared/Icon.tsx"
import { Poster } from "../shared/Poster.tsx"
import * as styles from "./StreamCard.css.ts"
import { TagList } from "./TagList.tsx"

interface StreamCardProps {
  readonly stream: Stream
  readonly player: PlayerChoice
  readonly onChoose: () => void
}

export const StreamCard = ({ stream, player, onChoose }: StreamCardProps) => {
  const titleId = useId()
  const badgeId = useId()
  // each player has its own tags (SPEC §3)
  const tags = parseTags(player === TV_PLAYER ? stream.tags : stream.tags_sldp)
  return (
    <article className={styles.card}>
      <button
        type="button"
        className={styles.choose}
        onClick={onChoose}
        aria-labelledby={titleId}
        aria-describedby={stream.maintenance_mode ? badgeId : undefined}
      >
        <span className={styles.media}>
          <Poster src={stream.image_location} alt={stream.title} className={styles.image} iconSize={40} />
          <span className={styles.play} aria-hidden="true">
            <Icon name="play" size={36} />
          </span>
        </span>
        <span id={titleId} className={styles.title}>
          {stream.title}
        </span>
      </button>
      {/* outside the button, whose visible text must stay its name; it describes the button instead */}
      {stream.maintenance_mode ? <span id={badgeId} className={styles.badge}>Maintenance</span> : null}
      <div className={styles.tags}>
        <TagList tags={tags} />
      </div>
    </article>
  )
}
