import { useSelector } from "@xstate/react"
import type { CSSProperties } from "react"
import type { ActorRefFrom } from "xstate"
import { selectCanSeek, selectTiming } from "../../machines/player/playerLiveEdgeMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectHasDragHandle, selectLiveEdge } from "../../machines/player/playerSelectors.ts"
import { behindLive } from "../../machines/player/playerTiming.ts"
import * as styles from "./ControlBar.css.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

/**
 * The DVR window (or a VOD's length) as a range; only there when the window is long enough to
 * seek in. With the DRAG_HANDLE flag its thumb is a grip, drawn over a track filled to the playhead.
 */
export const SeekBar = ({ actor }: { readonly actor: PlayerActor }) => {
  const liveEdge = useSelector(actor, selectLiveEdge)
  const canSeek = useSelector(liveEdge, selectCanSeek)
  const timing = useSelector(liveEdge, selectTiming)
  const handle = useSelector(actor, selectHasDragHandle)
  if (!canSeek || timing === null) return null
  const valueText = timing.live
    ? `${Math.round(behindLive(timing))} seconds behind live`
    : `${Math.round(timing.currentTime)} of ${Math.round(timing.end)} seconds`
  const value = Math.min(Math.max(timing.currentTime, timing.start), timing.end)
  const filled = timing.end > timing.start ? ((value - timing.start) / (timing.end - timing.start)) * 100 : 0
  return (
    <input
      className={styles.seek}
      data-handle={handle}
      style={handle ? ({ [styles.SEEK_FILLED]: `${filled}%` } as CSSProperties) : undefined}
      type="range"
      aria-label="Seek"
      aria-valuetext={valueText}
      min={timing.start}
      max={timing.end}
      step={0.1}
      value={value}
      onChange={(event) => actor.send({ type: "player.seekTo", time: Number(event.currentTarget.value) })}
    />
  )
}
