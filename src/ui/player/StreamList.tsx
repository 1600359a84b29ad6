import { useId } from "react"
import { parseTags, type Stream } from "../../domain/Stream.ts"
import type { NowNextActor } from "../../machines/streams/nowNextMachine.ts"
import { Icon } from "../shared/Icon.tsx"
import { NowNext, useProgrammes } from "../shared/NowNext.tsx"
import { Poster } from "../shared/Poster.tsx"
import * as styles from "./StreamList.css.ts"

interface StreamListProps {
  readonly streams: ReadonlyArray<Stream>
  readonly current: number
  readonly currentLabel: string
  /** the tags of the player on this page */
  readonly tagsOf: (stream: Stream) => string
  /** what airs on the listed streams */
  readonly nowNext: NowNextActor | undefined
  readonly onSelect: (index: number) => void
}

const iconLabels = { chromecast: "Chromecast supported", airplay: "AirPlay supported", lls: "Low-latency stream" } as const

/** The icon tags say at a glance which streams can be cast or play with low latency. */
const StreamIcons = ({ tags }: { readonly tags: string }) => {
  const kinds = parseTags(tags).flatMap((tag) =>
    tag.kind === "chromecast" || tag.kind === "airplay" || tag.kind === "lls" ? [tag.kind] : []
  )
  return kinds.length === 0 ? null : (
    <span className={styles.icons}>
      {kinds.map((kind) => (
        <Icon key={kind} name={kind} size={14} label={iconLabels[kind]} />
      ))}
    </span>
  )
}

interface StreamItemProps {
  readonly stream: Stream
  readonly isCurrent: boolean
  readonly currentLabel: string
  readonly tags: string
  readonly nowNext: NowNextActor | undefined
  readonly onSelect: () => void
}

const StreamItem = ({ stream, isCurrent, currentLabel, tags, nowNext, onSelect }: StreamItemProps) => {
  const programmesId = useId()
  const programmes = useProgrammes(nowNext, stream.id)
  return (
    <li className={styles.row}>
      <button
        type="button"
        className={styles.item}
        aria-current={isCurrent ? "true" : undefined}
        aria-describedby={programmes === null ? undefined : programmesId}
        onClick={onSelect}
      >
        <Poster src={stream.image_location} alt="" className={styles.thumb} iconSize={20} />
        <span className={styles.body}>
          <span className={styles.itemTitle}>{stream.title}</span>
          <StreamIcons tags={tags} />
          {isCurrent ? <span className={styles.nowPlaying}>{currentLabel}</span> : null}
        </span>
      </button>
      {/* beside the button so the progress bar keeps its role; the button's area still covers it */}
      {programmes === null ? null : (
        <div className={styles.programmes}>
          <NowNext id={programmesId} programmes={programmes} layout="compact" />
        </div>
      )}
    </li>
  )
}

export const StreamList = ({ streams, current, currentLabel, tagsOf, nowNext, onSelect }: StreamListProps) => (
  <aside className={styles.side} aria-labelledby="player-streams-title">
    <h2 id="player-streams-title" className={styles.sideTitle}>
      Streams
    </h2>
    <ul className={styles.list}>
      {streams.map((stream, index) => (
        <StreamItem
          key={stream.id}
          stream={stream}
          isCurrent={index === current}
          currentLabel={currentLabel}
          tags={tagsOf(stream)}
          nowNext={nowNext}
          onSelect={() => onSelect(index)}
        />
      ))}
    </ul>
  </aside>
)
