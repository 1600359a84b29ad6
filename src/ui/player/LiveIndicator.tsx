import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { PlayerChrome } from "../../domain/PlayerUi.ts"
import { momentOnScreen } from "../../machines/player/playerDvrTimeline.ts"
import {
  selectIsBehindLive,
  selectIsCatchingUp,
  selectIsLive,
  selectLatencyMs,
  selectTiming
} from "../../machines/player/playerLiveEdgeMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectLiveEdge } from "../../machines/player/playerSelectors.ts"
import { Icon } from "../shared/Icon.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./ControlBar.css.ts"
import { spanText, wallClock } from "./dvrFormat.ts"

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
 * The TV player, on a playlist with dates, shows the wall-clock time of the moment on screen
 * ("20:14 · 36 min behind live"), and behind live offers to catch up gently.
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
  const { live, behind, latencyMs, timing, catchingUp } = useSelectors(liveEdge, {
    live: selectIsLive,
    behind: selectIsBehindLive,
    latencyMs: selectLatencyMs,
    timing: selectTiming,
    catchingUp: selectIsCatchingUp
  })
  const moment = showLatency ? null : momentOnScreen(timing)

  if (!live) {
    return timing === null || !chrome.duration || timing.end <= 0 ? null : (
      <span className={styles.readout}>{`${clock(timing.currentTime)} / ${clock(timing.end)}`}</span>
    )
  }
  const readout =
    latencyMs === null ? null : showLatency ? behindText(latencyMs) : moment !== null ? null : behind ? `-${clock(latencyMs / 1000)}` : null
  return (
    <>
      {behind ? (
        <button
          type="button"
          className={styles.live}
          data-at-edge="false"
          aria-label="Go to live"
          onClick={() => actor.send({ type: "player.goLive" })}
        >
          <span className={styles.dot} />
          {/* a tiny player says just "Live" */}
          <span className={styles.optional}>Go to </span>
          <span className={styles.capitalOnTiny}>live</span>
        </button>
      ) : (
        <span className={styles.live} data-at-edge="true">
          <span className={styles.dot} />
          LIVE
        </span>
      )}
      {behind && !showLatency ? (
        <button
          type="button"
          className={styles.catchUp}
          aria-pressed={catchingUp}
          aria-label="Catch up"
          title="Play a little faster until live"
          onClick={() => actor.send({ type: "player.catchUp" })}
        >
          <Icon name="forward" size={14} />
          <span className={styles.optional}>Catch up</span>
        </button>
      ) : null}
      {moment === null || !chrome.duration ? null : (
        <span className={styles.readout}>
          {wallClock(moment)}
          {/* a tiny player keeps to the time */}
          {behind && latencyMs !== null ? <span className={styles.optional}>{` · ${spanText(latencyMs)} behind live`}</span> : null}
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
