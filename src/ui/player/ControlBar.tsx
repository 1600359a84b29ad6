import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { CastTarget } from "../../domain/CastProtocol.ts"
import type { PlayerChrome } from "../../domain/PlayerUi.ts"
import { selectCastAvailable, selectCastConnection } from "../../machines/player/playerCastMachine.ts"
import { previousStart } from "../../machines/player/playerDvrTimeline.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectCanTogglePlay, selectIsPlaying } from "../../machines/player/playerPlaybackMachine.ts"
import { selectCanFullscreen, selectCanPip, selectIsFullscreen, selectIsPip } from "../../machines/player/playerScreenMachine.ts"
import { selectCasting, selectCastTags, selectPlayback, selectScreen } from "../../machines/player/playerSelectors.ts"
import { Icon } from "../shared/Icon.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./ControlBar.css.ts"
import { wallClock } from "./dvrFormat.ts"
import { isKeyboardFocus } from "./keyboardFocus.ts"
import { LiveIndicator } from "./LiveIndicator.tsx"
import { SeekBar, useDvrTimeline } from "./SeekBar.tsx"
import { VolumeControl } from "./VolumeControl.tsx"

type PlayerActor = ActorRefFrom<typeof playerMachine>

interface ControlBarProps {
  readonly actor: PlayerActor
  readonly chrome: PlayerChrome
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
      <Icon name={target} size={22} />
    </button>
  )
}

/** Back to the start of the programme on screen (pressed again within a few seconds of it, the one before). */
const StartOfProgramme = ({ actor }: { readonly actor: PlayerActor }) => {
  const target = previousStart(useDvrTimeline(actor))
  if (target === null) return null
  return (
    <button
      type="button"
      className={styles.iconButton}
      aria-label="Start of programme"
      title={`Start of programme (${wallClock(target)})`}
      onClick={() => actor.send({ type: "player.seekToDate", at: target })}
    >
      <Icon name="skipStart" size={22} />
    </button>
  )
}

/** The bottom bar: play, the programme's start, volume, live state, then casting, picture-in-picture and fullscreen. */
export const ControlBar = ({ actor, chrome, shown, showLatency }: ControlBarProps) => {
  const playback = useSelector(actor, selectPlayback)
  const screen = useSelector(actor, selectScreen)
  const playing = useSelector(playback, selectIsPlaying)
  const canToggle = useSelector(playback, selectCanTogglePlay)
  const { fullscreen, canFullscreen, pip, canPip } = useSelectors(screen, {
    fullscreen: selectIsFullscreen,
    canFullscreen: selectCanFullscreen,
    pip: selectIsPip,
    canPip: selectCanPip
  })

  return (
    // biome-ignore lint/a11y/useSemanticElements: a bar of player buttons, not a form's fieldset
    <div
      className={styles.bar}
      role="group"
      aria-label="Player controls"
      data-shown={shown}
      data-thin={chrome.thinControls}
      // the bar stays while the keyboard is on one of its controls
      onFocus={(event) => {
        if (isKeyboardFocus(event.target)) actor.send({ type: "controls.focusIn" })
      }}
      onBlur={(event) => {
        const next = event.relatedTarget
        if (!(next instanceof Node && event.currentTarget.contains(next))) actor.send({ type: "controls.focusOut" })
      }}
    >
      <SeekBar actor={actor} />
      <div className={styles.row}>
        <button
          type="button"
          className={styles.iconButton}
          aria-label={playing ? "Pause" : "Play"}
          disabled={!canToggle}
          onClick={() => actor.send({ type: "player.togglePlay" })}
        >
          <Icon name={playing ? "pause" : "play"} size={22} />
        </button>
        {showLatency ? null : <StartOfProgramme actor={actor} />}
        <VolumeControl actor={actor} chrome={chrome} />
        <LiveIndicator actor={actor} chrome={chrome} showLatency={showLatency} />
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
            <Icon name="pip" size={22} />
          </button>
        ) : null}
        {canFullscreen && chrome.fullscreen ? (
          <button
            type="button"
            className={styles.iconButton}
            aria-label={fullscreen ? "Exit fullscreen" : "Fullscreen"}
            onClick={() => actor.send({ type: "screen.toggleFullscreen" })}
          >
            <Icon name={fullscreen ? "exitFullscreen" : "fullscreen"} size={22} />
          </button>
        ) : null}
      </div>
    </div>
  )
}
