import { useSelector } from "@xstate/react"
import type { KeyboardEvent, PointerEvent } from "react"
import type { ActorRefFrom } from "xstate"
import type { PlayerChrome } from "../../domain/PlayerUi.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import { selectVolumeActor } from "../../machines/player/playerSelectors.ts"
import { selectIsMuted, selectLitTicks, selectVolume, selectVolumeTicks } from "../../machines/player/playerVolumeMachine.ts"
import { Icon } from "../shared/Icon.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./ControlBar.css.ts"

type PlayerActor = ActorRefFrom<typeof playerMachine>

const stepKeys: Record<string, number> = { ArrowUp: 1, ArrowRight: 1, ArrowDown: -1, ArrowLeft: -1 }

/** Mute button and the volume as a row of ticks (10, 8 on a small player, 6 on a tiny one). */
export const VolumeControl = ({ actor, chrome }: { readonly actor: PlayerActor; readonly chrome: PlayerChrome }) => {
  const volumeActor = useSelector(actor, selectVolumeActor)
  const { volume, muted, ticks, lit } = useSelectors(volumeActor, {
    volume: selectVolume,
    muted: selectIsMuted,
    ticks: selectVolumeTicks,
    lit: selectLitTicks
  })
  const percent = muted ? 0 : Math.round(volume * 100)

  const onKeyDown = (event: KeyboardEvent) => {
    const by = stepKeys[event.key]
    if (by === undefined) return
    // the slider's own arrows: not the player's seek shortcuts
    event.preventDefault()
    event.stopPropagation()
    actor.send({ type: "volume.step", by })
  }
  const setTick = (tick: number) => actor.send({ type: "volume.set", volume: tick / ticks })
  // dragging across the ticks sets each one it passes
  const onTickEnter = (tick: number) => (event: PointerEvent) => {
    if (event.buttons === 1) setTick(tick)
  }

  return (
    <>
      {chrome.mute ? (
        <button
          type="button"
          className={styles.iconButton}
          aria-label={muted ? "Unmute" : "Mute"}
          onClick={() => actor.send({ type: "volume.toggleMute" })}
        >
          <Icon name={muted ? "muted" : "volume"} size={22} />
        </button>
      ) : null}
      {chrome.volume ? (
        <div
          className={styles.volume}
          role="slider"
          tabIndex={0}
          aria-label="Volume"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={percent}
          aria-valuetext={`${percent}%`}
          data-ticks={ticks}
          onKeyDown={onKeyDown}
        >
          {Array.from({ length: ticks }, (_, index) => (
            <span
              // biome-ignore lint/suspicious/noArrayIndexKey: the ticks are positions on a scale, nothing else tells them apart
              key={index}
              className={styles.tick}
              style={{ height: `${8 + (12 * (index + 1)) / ticks}px` }}
              data-lit={index < lit}
              onPointerDown={() => setTick(index + 1)}
              onPointerEnter={onTickEnter(index + 1)}
            />
          ))}
        </div>
      ) : null}
    </>
  )
}
