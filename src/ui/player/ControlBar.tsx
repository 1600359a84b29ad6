import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { hasUiFlag } from "../../domain/PlayerUi.ts"
import { selectCastAvailable, selectCastConnection, type CastTarget } from "../../machines/player/playerCastMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { shows } from "../../machines/player/playerMetadata.ts"
import { selectCanTogglePlay, selectIsPlaying } from "../../machines/player/playerPlaybackMachine.ts"
import { selectCastTags, selectCasting, selectPlayback, selectScreen } from "../../machines/player/playerSelectors.ts"
import { selectCanFullscreen, selectCanPip, selectIsFullscreen, selectIsPip } from "../../machines/player/playerScreenMachine.ts"
import * as styles from "./ControlBar.css.ts"
import { LiveIndicator } from "./LiveIndicator.tsx"
import { PlayerIcon } from "./PlayerIcon.tsx"
import { SeekBar } from "./SeekBar.tsx"
import { VolumeControl } from "./VolumeControl.tsx"

type PlayerActor = ActorRefFrom<typeof playerMachine>

interface ControlBarProps {
  readonly actor: PlayerActor
  readonly ui: number
  readonly shown: boolean
  readonly showLatency: boolean
}

const castLabels: Record<CastTarget, string> = { airplay: "AirPlay", chromecast: "Cast to a device" }

const CastButton = ({ actor, target }: { readonly actor: PlayerActor; readonly target: CastTarget }) => {
  const casting = useSelector(actor, selectCasting)
  const available = useSelector(casting, (snapshot) => selectCastAvailable(snapshot, target))
  const connection = useSelector(casting, (snapshot) => selectCastConnection(snapshot, target))
  const tagged = useSelector(actor, (snapshot) => selectCastTags(snapshot)[target])
  if (!available || !tagged) return null
  return (
    <button
      type="button"
      className={styles.iconButton}
      aria-label={castLabels[target]}
      aria-pressed={connection === "connected"}
      onClick={() => actor.send({ type: "cast.prompt", target })}
    >
      <PlayerIcon name={target} />
    </button>
  )
}

/** The bottom bar: play, volume, live state, then casting, picture-in-picture and fullscreen. */
export const ControlBar = ({ actor, ui, shown, showLatency }: ControlBarProps) => {
  const playback = useSelector(actor, selectPlayback)
  const screen = useSelector(actor, selectScreen)
  const playing = useSelector(playback, selectIsPlaying)
  const canToggle = useSelector(playback, selectCanTogglePlay)
  const fullscreen = useSelector(screen, selectIsFullscreen)
  const canFullscreen = useSelector(screen, selectCanFullscreen)
  const pip = useSelector(screen, selectIsPip)
  const canPip = useSelector(screen, selectCanPip)

  return (
    <div className={styles.bar} role="group" aria-label="Player controls" data-shown={shown} data-thin={hasUiFlag(ui, "THIN_CONTROL_BAR")}>
      <SeekBar actor={actor} />
      <div className={styles.row}>
        <button
          type="button"
          className={styles.iconButton}
          aria-label={playing ? "Pause" : "Play"}
          disabled={!canToggle}
          onClick={() => actor.send({ type: "player.togglePlay" })}
        >
          <PlayerIcon name={playing ? "pause" : "play"} />
        </button>
        <VolumeControl actor={actor} ui={ui} />
        <LiveIndicator actor={actor} ui={ui} showLatency={showLatency} />
        <span className={styles.spacer} />
        <CastButton actor={actor} target="airplay" />
        <CastButton actor={actor} target="chromecast" />
        {canPip ? (
          <button
            type="button"
            className={styles.iconButton}
            aria-label={pip ? "Exit picture-in-picture" : "Picture-in-picture"}
            onClick={() => actor.send({ type: "screen.togglePip" })}
          >
            <PlayerIcon name="pip" />
          </button>
        ) : null}
        {canFullscreen && shows(ui, "NO_FULLSCREEN") ? (
          <button
            type="button"
            className={styles.iconButton}
            aria-label={fullscreen ? "Exit fullscreen" : "Fullscreen"}
            onClick={() => actor.send({ type: "screen.toggleFullscreen" })}
          >
            <PlayerIcon name={fullscreen ? "exitFullscreen" : "fullscreen"} />
          </button>
        ) : null}
      </div>
    </div>
  )
}
