import { parseTags, type Stream } from "../../domain/Stream.ts"
import { Icon } from "../shared/Icon.tsx"
import { Poster } from "../shared/Poster.tsx"
import * as styles from "./StreamList.css.ts"

interface StreamListProps {
  readonly streams: ReadonlyArray<Stream>
  readonly current: number
  readonly currentLabel: string
  /** the tags of the player on this page */
  readonly tagsOf: (stream: Stream) => string
  readonly onSelect: (index: number) => void
}

const iconLabels = { chromecast: "Chromecast supported", airplay: "AirPlay supported", lls: "Low-latency stream" } as const

/** The icon tags say at a glance which streams can be cast or play with low latency. */
const StreamIcons = ({ tags }: { readonly tags: string }) => {
  const kinds = parseTags(tags).flatMap((tag) => (tag.kind === "chromecast" || tag.kind === "airplay" || tag.kind === "lls" ? [tag.kind] : []))
  return kinds.length === 0 ? null : (
    <span className={styles.icons}>
      {kinds.map((kind) => <Icon key={kind} name={kind} size={14} label={iconLabels[kind]} />)}
    </span>
  )
}

export const StreamList = ({ streams, current, currentLabel, tagsOf, onSelect }: StreamListProps) => (
  <aside className={styles.side} aria-labelledby="player-streams-title">
    <h2 id="player-streams-title" className={styles.sideTitle}>Streams</h2>
    <ul className={styles.list}>
      {streams.map((stream, index) => (
        <li key={stream.id}>
          <button
            type="button"
            className={styles.item}
            aria-current={index === current ? "true" : undefined}
            onClick={() => onSelect(index)}
          >
            <Poster src={stream.image_location} alt="" className={styles.thumb} iconSize={20} />
            <span className={styles.body}>
              <span className={styles.itemTitle}>{stream.title}</span>
              <StreamIcons tags={tagsOf(stream)} />
              {index === current ? <span className={styles.nowPlaying}>{currentLabel}</span> : null}
            </span>
          </button>
        </li>
      ))}
    </ul>
  </aside>
)
