import { useSelector } from "@xstate/react"
import { type KeyboardEvent, type MouseEvent, useCallback } from "react"
import type { ActorRefFrom } from "xstate"
import { selectControlsShown, selectHovered, selectIsTouch, type TapZone } from "../../machines/player/playerControlsMachine.ts"
import { momentOnScreen } from "../../machines/player/playerDvrTimeline.ts"
import { selectLatencyMs, selectTiming } from "../../machines/player/playerLiveEdgeMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectFirstFrameMs, selectIsBuffering, selectIsPlaying } from "../../machines/player/playerPlaybackMachine.ts"
import { selectIsFullscreen } from "../../machines/player/playerScreenMachine.ts"
import {
  sameLogo,
  selectChrome,
  selectControls,
  selectCurrentStream,
  selectLiveEdge,
  selectLogo,
  selectPlayback,
  selectScreen
} from "../../machines/player/playerSelectors.ts"
import { shortcutFor } from "../../machines/player/playerShortcuts.ts"
import { usePlaceVideo } from "../shared/ServicesContext.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import { AccessCheck, ChannelNotice } from "./AccessPanel.tsx"
import { ControlBar } from "./ControlBar.tsx"
import { isKeyboardFocus } from "./keyboardFocus.ts"
import { PlayerLogo } from "./PlayerLogo.tsx"
import * as styles from "./PlayerStage.css.ts"
import { StageOverlays } from "./StageOverlays.tsx"
import { StartMissedNotice } from "./StartOverPrompt.tsx"

type PlayerActor = ActorRefFrom<typeof playerMachine>

/** Keys a focused control handles itself. */
const ownKeys = (target: EventTarget, key: string): boolean => {
  if (!(target instanceof HTMLElement)) return false
  if (target.tagName === "INPUT") return key.startsWith("Arrow") || key === " "
  return (target.tagName === "BUTTON" || target.tagName === "A") && (key === " " || key === "Enter")
}

const zoneAt = (event: MouseEvent<HTMLElement>): TapZone => {
  const box = event.currentTarget.getBoundingClientRect()
  if (!(box.width > 0)) return "middle"
  const third = (event.clientX - box.left) / (box.width / 3)
  return third < 1 ? "left" : third >= 2 ? "right" : "middle"
}

/** The picture with everything over it: overlays, touch zones and the control bar. */
export const PlayerStage = ({ actor, showLatency }: { readonly actor: PlayerActor; readonly showLatency: boolean }) => {
  const placeVideo = usePlaceVideo()
  const { chrome, stream, playback, controls, liveEdge } = useSelectors(actor, {
    chrome: selectChrome,
    stream: selectCurrentStream,
    playback: selectPlayback,
    controls: selectControls,
    liveEdge: selectLiveEdge
  })
  const { playing, buffering, firstFrameMs } = useSelectors(playback, {
    playing: selectIsPlaying,
    buffering: selectIsBuffering,
    firstFrameMs: selectFirstFrameMs
  })
  const { shown, hovered, touch } = useSelectors(controls, { shown: selectControlsShown, hovered: selectHovered, touch: selectIsTouch })
  const latencyMs = useSelector(liveEdge, selectLatencyMs)
  const moment = momentOnScreen(useSelector(liveEdge, selectTiming))
  const fullscreen = useSelector(useSelector(actor, selectScreen), selectIsFullscreen)
  const logo = useSelector(actor, selectLogo, sameLogo)

  // the element is placed rather than rendered, so a warm-started one can be handed over as it plays
  const attach = useCallback(
    (container: HTMLDivElement | null) => {
      if (container === null) return
      const element = placeVideo(container)
      element.className = styles.video
      actor.send({ type: "media.attach", element, container })
      return () => {
        actor.send({ type: "media.detach" })
        element.remove()
      }
    },
    [actor, placeVideo]
  )

  const onKeyDown = (event: KeyboardEvent) => {
    // any key is a sign of the viewer, Enter on a focused button too
    actor.send({ type: "controls.activity" })
    if (event.altKey || event.ctrlKey || event.metaKey || ownKeys(event.target, event.key)) return
    const command = shortcutFor(event.key, chrome)
    if (command === null) return
    event.preventDefault()
    actor.send(command)
  }
  const onSurfaceClick = (event: MouseEvent<HTMLDivElement>) => {
    if (!touch) actor.send({ type: "player.togglePlay" })
    else actor.send({ type: "controls.tap", zone: chrome.touchZones ? zoneAt(event) : "middle" })
  }
  const onSurfaceDoubleClick = () => {
    if (!touch) actor.send({ type: "screen.toggleFullscreen" })
  }
  // the page shows the title under the player; fullscreen hides the page, so the player shows it
  const showHeader = fullscreen && chrome.title && stream !== undefined

  return (
    // biome-ignore lint/a11y/useSemanticElements: a landmark for the player; a <section> would add nothing but its name
    <div
      ref={attach}
      className={styles.frame}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: the player takes the keyboard's shortcuts when focused, as every video player does
      tabIndex={0}
      role="region"
      aria-label="Video player"
      data-controls={shown ? "shown" : "hidden"}
      data-hovered={hovered}
      data-touch={touch}
      data-state={playing ? "playing" : buffering ? "buffering" : "stopped"}
      data-latency-ms={latencyMs ?? undefined}
      // the wall clock of the picture (its program date time), for tests and the benchmark
      data-moment-ms={moment === null ? undefined : Math.round(moment)}
      data-first-frame-ms={firstFrameMs ?? undefined}
      data-logo={logo === null ? undefined : `${logo.vertical}-${logo.horizontal}`}
      onPointerMove={(event) => actor.send({ type: "controls.pointerMove", pointerType: event.pointerType })}
      onPointerDown={(event) => actor.send({ type: "controls.pointerMove", pointerType: event.pointerType })}
      onPointerLeave={() => actor.send({ type: "controls.pointerLeave" })}
      onFocus={(event) => {
        if (isKeyboardFocus(event.target)) actor.send({ type: "controls.activity" })
      }}
      onKeyDown={onKeyDown}
    >
      {chrome.audioOnly && stream !== undefined ? <img className={styles.artwork} src={stream.image_location} alt="" /> : null}
      <div className={styles.surface} onClick={onSurfaceClick} onDoubleClick={onSurfaceDoubleClick} aria-hidden />
      {showHeader ? <div className={styles.header}>{stream.title}</div> : null}
      <PlayerLogo actor={actor} />
      <StageOverlays actor={actor} />
      <AccessCheck actor={actor} />
      <ChannelNotice actor={actor} />
      <StartMissedNotice actor={actor} />
      {chrome.controls ? <ControlBar actor={actor} chrome={chrome} shown={shown} showLatency={showLatency} /> : null}
    </div>
  )
}
