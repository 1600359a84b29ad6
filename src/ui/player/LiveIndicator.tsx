import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { PlayerChrome } from "../../domain/PlayerUi.ts"
import { selectIsBehindLive, selectIsLive, selectLatencyMs, selectTiming } from "../../machines/player/playerLiveEdgeMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectLiveEdge } from "../../machines/player/playerSelectors.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./ControlBar.css.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

const clock = (seconds: number): string => {
  const whole = Math.max(0, Math.floor(seconds))
  const minutes = Math.floor(whole / 60)
  const rest = whole % 60
  return minutes >= 60
    ? `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, "0")}:${String(rest).padStart(2, "0")}`
    : `${minutes}:${String(rest).padStart(2, "0")}`
}

/** One decimal below 10 s, whole seconds above. */
export const behindText = (ms: number): string => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s behind` : `${Math.round(ms / 1000)} s behind`)

/**
 * LIVE at the live edge; a 'go to live' button with the distance once behind it. The
 * low-latency player always shows how far behind live it plays; a VOD shows its time instead.
 */
export const LiveIndicator = ({
  actor,
  chrome,
  showLatency
}: {
  readonly actor: PlayerActor
  readonly chrome: PlayerChrome
  readonly showLatency: boolean
}) => {
  const liveEdge = useSelector(actor, selectLiveEdge)
  const { live, behind, latencyMs, timing } = useSelectors(liveEdge, {
    live: selectIsLive,
    behind: selectIsBehindLive,
    latencyMs: selectLatencyMs,
    timing: selectTiming
  })

  if (!live) {
    return timing === null || !chrome.duration || timing.end <= 0 ? null : (
      <span className={styles.readout}>{`${clock(timing.currentTime)} / ${clock(timing.end)}`}</span>
    )
  }
  const readout = latencyMs === null ? null : showLatency ? behindText(latencyMs) : behind ? `-${clock(latencyMs / 1000)}` : null
  return (
    <>
      {behind ? (
        <button type="button" className={styles.live} data-at-edge="false" onClick={() => actor.send({ type: "player.goLive" })}>
          <span className={styles.dot} />
          Go to live
        </button>
      ) : (
        <span className={styles.live} data-at-edge="true">
          <span className={styles.dot} />
          LIVE
        </span>
      )}
      {readout === null || !chrome.duration ? null : (
        <span className={styles.readout}>
          {readout}
          {showLatency ? <span className={styles.optional}> live</span> : null}
        </span>
      )}
    </>
  )
}
