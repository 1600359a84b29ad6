import { useWindowVirtualizer } from "@tanstack/react-virtual"
import { useLayoutEffect, useRef, useState } from "react"
import type { GuideChannel } from "../../machines/guide/guideSelectors.ts"
import type { ReminderControls } from "../reminders/ProgrammeReminder.tsx"
import { ChannelCard } from "./ChannelCard.tsx"
import * as styles from "./ChannelList.css.ts"

// A guess at a channel's height before it is measured: its heading, then rows of programme tiles.
const HEADING_PX = 56
const TILE_ROW_PX = 132
const TILE_MIN_PX = 220
const estimateHeight = (channel: GuideChannel | undefined): number => {
  const columns = Math.max(1, Math.floor((window.innerWidth - 220) / TILE_MIN_PX))
  return HEADING_PX + Math.ceil((channel?.programmes.length ?? 1) / columns) * TILE_ROW_PX
}

/**
 * The day's channels, only those near the viewport in the page (hundreds of channels with a day
 * of programmes each would be tens of thousands of elements). The page itself scrolls.
 */
export const ChannelList = ({
  channels,
  timeZone,
  reminders
}: {
  readonly channels: ReadonlyArray<GuideChannel>
  readonly timeZone: string
  readonly reminders: ReminderControls
}) => {
  const list = useRef<HTMLUListElement>(null)
  // where the list starts in the page: what sits above it (header, toolbar) moves it
  const [scrollMargin, setScrollMargin] = useState(0)
  // biome-ignore lint/correctness/useExhaustiveDependencies: new channels move the list, so it is measured again
  useLayoutEffect(() => {
    const measure = () => {
      const top = (list.current?.getBoundingClientRect().top ?? 0) + window.scrollY
      setScrollMargin((previous) => (Math.abs(previous - top) < 1 ? previous : top))
    }
    measure()
    window.addEventListener("resize", measure)
    return () => window.removeEventListener("resize", measure)
  }, [channels])

  const virtualizer = useWindowVirtualizer({
    count: channels.length,
    estimateSize: (index) => estimateHeight(channels[index]),
    getItemKey: (index) => channels[index]?.key ?? index,
    overscan: 3,
    scrollMargin,
    initialRect: { width: window.innerWidth, height: window.innerHeight },
    // a synchronous render per scroll event would hold up the frame; the overscan covers the lag
    useFlushSync: false
  })

  return (
    <ul ref={list} className={styles.list} style={{ height: virtualizer.getTotalSize() }} aria-label="Channels">
      {virtualizer.getVirtualItems().map((row) => {
        const channel = channels[row.index]
        if (channel === undefined) return null
        const headingId = `channel-${row.index}`
        return (
          <li
            key={row.key}
            ref={virtualizer.measureElement}
            data-index={row.index}
            className={styles.row}
            style={{ transform: `translateY(${row.start - scrollMargin}px)` }}
            aria-setsize={channels.length}
            aria-posinset={row.index + 1}
          >
            <ChannelCard channel={channel} timeZone={timeZone} headingId={headingId} reminders={reminders} />
          </li>
        )
      })}
    </ul>
  )
}
