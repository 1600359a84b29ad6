import { useSelector } from "@xstate/react"
import { type CSSProperties, type KeyboardEvent, useMemo } from "react"
import type { ActorRefFrom } from "xstate"
import { type DvrProgramme, type DvrTimeline, dvrTimeline, nextStart, previousStart } from "../../machines/player/playerDvrTimeline.ts"
import { selectWindowProgrammes } from "../../machines/player/playerGuideWindowMachine.ts"
import { selectCanSeek, selectIsBehindLive, selectTiming } from "../../machines/player/playerLiveEdgeMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectGuideWindow, selectHasDragHandle, selectLiveEdge } from "../../machines/player/playerSelectors.ts"
import { behindLive } from "../../machines/player/playerTiming.ts"
import * as styles from "./ControlBar.css.ts"
import { momentText, wallClock } from "./dvrFormat.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

/** The window's programmes in wall-clock time, for the seek bar and the control bar's "Start of programme". */
export const useDvrTimeline = (actor: PlayerActor): DvrTimeline | null => {
  const timing = useSelector(useSelector(actor, selectLiveEdge), selectTiming)
  const programmes = useSelector(useSelector(actor, selectGuideWindow), selectWindowProgrammes)
  return useMemo(() => dvrTimeline(timing, programmes), [timing, programmes])
}

const programmeLabel = (programme: DvrProgramme): string => `${programme.title}, from ${wallClock(programme.start)}`

/**
 * The programmes along the window, each from its start to its end; a click on one plays it from
 * its beginning. Pointer only: the keyboard has the slider's Page Up and Page Down and the "Start
 * of programme" button, so these add no stops to the tab order.
 */
const ProgrammeMarks = ({ actor, timeline }: { readonly actor: PlayerActor; readonly timeline: DvrTimeline }) => (
  <div className={styles.programmes}>
    {timeline.programmes.map((programme) => {
      const place = { left: `${programme.from}%`, width: `${programme.to - programme.from}%` }
      const current = timeline.current?.start === programme.start
      return programme.startsInside ? (
        <button
          key={programme.start}
          type="button"
          tabIndex={-1}
          className={styles.programme}
          style={place}
          data-current={current}
          aria-label={`Play ${programmeLabel(programme)}`}
          title={programmeLabel(programme)}
          onClick={() => actor.send({ type: "player.seekToDate", at: programme.start })}
        >
          <span className={styles.programmeTitle}>{programme.title}</span>
        </button>
      ) : (
        <span key={programme.start} className={styles.programme} style={place} data-current={current} title={programme.title}>
          <span className={styles.programmeTitle}>{programme.title}</span>
        </span>
      )
    })}
  </div>
)

/**
 * The DVR window (or a VOD's length) as a range; only there when the window is long enough to
 * seek in. With the DRAG_HANDLE flag its thumb is a grip, drawn over a track filled to the playhead.
 * A window whose playlist carries dates reads in wall-clock time, with the guide's programmes
 * marked along it: Page Up goes back to the start of the programme on screen (the one before,
 * pressed again), Page Down on to the next one, or live.
 */
export const SeekBar = ({ actor }: { readonly actor: PlayerActor }) => {
  const liveEdge = useSelector(actor, selectLiveEdge)
  const canSeek = useSelector(liveEdge, selectCanSeek)
  const behind = useSelector(liveEdge, selectIsBehindLive)
  const timing = useSelector(liveEdge, selectTiming)
  const handle = useSelector(actor, selectHasDragHandle)
  const timeline = useDvrTimeline(actor)
  if (!canSeek || timing === null) return null
  const valueText =
    timeline !== null
      ? [momentText(timeline.at, behind ? timeline.behindMs : null), timeline.current?.title].filter(Boolean).join(", ")
      : timing.live
        ? `${Math.round(behindLive(timing))} seconds behind live`
        : `${Math.round(timing.currentTime)} of ${Math.round(timing.end)} seconds`
  const value = Math.min(Math.max(timing.currentTime, timing.start), timing.end)
  const filled = timing.end > timing.start ? ((value - timing.start) / (timing.end - timing.start)) * 100 : 0
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (timeline === null || (event.key !== "PageUp" && event.key !== "PageDown")) return
    event.preventDefault()
    const target = event.key === "PageUp" ? previousStart(timeline) : nextStart(timeline)
    if (target !== null) actor.send({ type: "player.seekToDate", at: target })
    else if (event.key === "PageDown") actor.send({ type: "player.goLive" })
  }
  return (
    <div className={styles.seekArea}>
      {timeline === null || timeline.programmes.length === 0 ? null : <ProgrammeMarks actor={actor} timeline={timeline} />}
      <input
        className={styles.seek}
        data-handle={handle}
        style={handle ? ({ [styles.SEEK_FILLED]: `${filled}%` } as CSSProperties) : undefined}
        type="range"
        aria-label="Seek"
        aria-valuetext={valueText}
        aria-keyshortcuts={timeline === null ? undefined : "PageUp PageDown"}
        min={timing.start}
        max={timing.end}
        step={0.1}
        value={value}
        onKeyDown={onKeyDown}
        onChange={(event) => actor.send({ type: "player.seekTo", time: Number(event.currentTarget.value) })}
      />
    </div>
  )
}
