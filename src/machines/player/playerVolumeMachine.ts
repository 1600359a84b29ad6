import { assign, enqueueActions, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { MediaCommand } from "../../domain/MediaProtocol.ts"
import { VOLUME_TICKS } from "../../domain/PlayerLimits.ts"
import { notProvided } from "../shared/notProvided.ts"
import { mediaOf } from "./playerMedia.ts"
import { sizeForWidth, volumeTicksFor } from "./playerTuning.ts"

export interface VolumeSetting {
  /** 0…1 */
  readonly volume: number
  readonly muted: boolean
}

export type VolumeEvent =
  | { readonly type: "volume.set"; readonly volume: number }
  /** one tick up (+1) or down (-1) */
  | { readonly type: "volume.step"; readonly by: number }
  | { readonly type: "volume.toggleMute" }
  | { readonly type: "screen.resized"; readonly width: number }
  | { readonly type: "media.autoMuted" }

interface VolumeContext extends VolumeSetting {
  readonly ticks: number
}

export const DEFAULT_VOLUME: VolumeSetting = { volume: 1, muted: false }

const clamp01 = (value: number): number => (Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 1)
const stepped = ({ volume, ticks }: VolumeContext, by: number): number => clamp01(Math.round(volume * ticks + by) / ticks)

/**
 * Volume and mute, kept between visits. The bar shows 10 ticks, 8 on a small player and 6 on a
 * tiny one (SPEC §9); a step is one tick. Muting forced by the browser's autoplay rules is not
 * the viewer's choice and is not remembered.
 */
export const playerVolumeMachine = setup({
  types: { context: {} as VolumeContext, events: {} as VolumeEvent },
  actors: {
    restoreVolume: fromPromise<VolumeSetting>(notProvided("restoreVolume"))
  },
  // actions run in order and see what an earlier assign kept, so persisting reads the context
  actions: {
    toMedia: enqueueActions(({ system, enqueue }, command: MediaCommand) => {
      const media = mediaOf(system)
      if (media !== undefined) enqueue.sendTo(media, command)
    }),
    persistVolume: (_, _params: VolumeSetting) => {},
    keep: assign((_, params: Partial<VolumeSetting>) => params),
    keepSize: assign((_, params: { readonly width: number }) => ({ ticks: volumeTicksFor(sizeForWidth(params.width)) }))
  },
  guards: {
    isMuted: ({ context }) => context.muted,
    isAudible: (_, params: { readonly volume: number }) => params.volume > 0,
    wasMuted: (_, params: { readonly muted: boolean }) => params.muted,
    isStepUp: (_, params: { readonly by: number }) => params.by > 0
  }
}).createMachine({
  id: "volume",
  context: { ...DEFAULT_VOLUME, ticks: VOLUME_TICKS.normal },
  initial: "restoring",
  on: {
    "screen.resized": { actions: { type: "keepSize", params: ({ event }) => event } }
  },
  states: {
    restoring: {
      invoke: {
        src: "restoreVolume",
        onDone: [
          {
            guard: { type: "wasMuted", params: ({ event }) => event.output },
            target: "muted",
            actions: { type: "keep", params: ({ event }) => event.output }
          },
          { target: "audible", actions: { type: "keep", params: ({ event }) => event.output } }
        ],
        onError: "audible"
      }
    },
    audible: {
      entry: [
        { type: "keep", params: { muted: false } },
        { type: "toMedia", params: ({ context }) => ({ type: "media.volume", volume: context.volume, muted: false }) }
      ],
      on: {
        "volume.toggleMute": {
          target: "muted",
          actions: { type: "persistVolume", params: ({ context }) => ({ volume: context.volume, muted: true }) }
        },
        "media.autoMuted": "muted",
        "volume.set": {
          target: "audible",
          reenter: true,
          actions: [
            { type: "keep", params: ({ event }) => ({ volume: clamp01(event.volume) }) },
            { type: "persistVolume", params: ({ context }) => ({ volume: context.volume, muted: false }) }
          ]
        },
        "volume.step": {
          target: "audible",
          reenter: true,
          actions: [
            { type: "keep", params: ({ context, event }) => ({ volume: stepped(context, event.by) }) },
            { type: "persistVolume", params: ({ context }) => ({ volume: context.volume, muted: false }) }
          ]
        }
      }
    },
    muted: {
      tags: ["muted"],
      entry: [
        { type: "keep", params: { muted: true } },
        { type: "toMedia", params: ({ context }) => ({ type: "media.volume", volume: context.volume, muted: true }) }
      ],
      on: {
        "volume.toggleMute": {
          target: "audible",
          // unmuting at zero would still be silent: come back at one tick
          actions: [
            { type: "keep", params: ({ context }) => ({ volume: context.volume > 0 ? context.volume : 1 / context.ticks }) },
            { type: "persistVolume", params: ({ context }) => ({ volume: context.volume, muted: false }) }
          ]
        },
        "volume.set": {
          guard: { type: "isAudible", params: ({ event }) => ({ volume: clamp01(event.volume) }) },
          target: "audible",
          actions: [
            { type: "keep", params: ({ event }) => ({ volume: clamp01(event.volume) }) },
            { type: "persistVolume", params: ({ context }) => ({ volume: context.volume, muted: false }) }
          ]
        },
        "volume.step": {
          guard: { type: "isStepUp", params: ({ event }) => event },
          target: "audible",
          actions: [
            { type: "keep", params: ({ context, event }) => ({ volume: stepped(context, event.by) }) },
            { type: "persistVolume", params: ({ context }) => ({ volume: context.volume, muted: false }) }
          ]
        }
      }
    }
  }
})

export type VolumeSnapshot = SnapshotFrom<typeof playerVolumeMachine>

export const selectVolume = (snapshot: VolumeSnapshot | undefined): number => snapshot?.context.volume ?? DEFAULT_VOLUME.volume
export const selectIsMuted = (snapshot: VolumeSnapshot | undefined): boolean =>
  snapshot === undefined ? false : snapshot.hasTag("muted") || snapshot.context.volume === 0
export const selectVolumeTicks = (snapshot: VolumeSnapshot | undefined): number => snapshot?.context.ticks ?? VOLUME_TICKS.normal
/** how many ticks are lit */
export const selectLitTicks = (snapshot: VolumeSnapshot | undefined): number =>
  selectIsMuted(snapshot) ? 0 : Math.round(selectVolume(snapshot) * selectVolumeTicks(snapshot))
