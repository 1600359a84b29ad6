import { type AnyActorRef, assign, enqueueActions, type SnapshotFrom, setup } from "xstate"
import type { FullscreenCommand, PipCommand, ScreenFact } from "../../domain/ScreenProtocol.ts"
import { type PlayerSize, sizeForWidth } from "./playerTuning.ts"

export const FULLSCREEN_ID = "fullscreen"
export const PIP_ID = "pip"

export type ScreenEvent = ScreenFact | { readonly type: "screen.toggleFullscreen" } | { readonly type: "screen.togglePip" }

/** Fullscreen and picture-in-picture, and the player's size class. The adapters report every change, ours or the browser's. */
export const playerScreenMachine = setup({
  types: { context: {} as { readonly size: PlayerSize }, events: {} as ScreenEvent },
  guards: {
    isAvailable: (_, params: { readonly available: boolean }) => params.available,
    isUnavailable: (_, params: { readonly available: boolean }) => !params.available,
    isActive: (_, params: { readonly active: boolean }) => params.active
  },
  actions: {
    command: enqueueActions(({ system, enqueue }, params: { readonly to: string; readonly command: FullscreenCommand | PipCommand }) => {
      const adapter = system.get(params.to) as AnyActorRef | undefined
      if (adapter !== undefined) enqueue.sendTo(adapter, params.command)
    }),
    keepSize: assign((_, params: { readonly width: number }) => ({ size: sizeForWidth(params.width) }))
  }
}).createMachine({
  id: "screen",
  type: "parallel",
  context: { size: "normal" },
  on: { "screen.resized": { actions: { type: "keepSize", params: ({ event }) => event } } },
  states: {
    fullscreen: {
      initial: "unavailable",
      states: {
        unavailable: {
          on: { "screen.fullscreenAvailable": { guard: { type: "isAvailable", params: ({ event }) => event }, target: "off" } }
        },
        off: {
          on: {
            "screen.toggleFullscreen": {
              actions: { type: "command", params: { to: FULLSCREEN_ID, command: { type: "fullscreen.enter" } } }
            }
          }
        },
        on: {
          tags: ["fullscreen"],
          on: {
            "screen.toggleFullscreen": {
              actions: { type: "command", params: { to: FULLSCREEN_ID, command: { type: "fullscreen.exit" } } }
            }
          }
        }
      },
      on: {
        "screen.fullscreenChanged": [{ guard: { type: "isActive", params: ({ event }) => event }, target: ".on" }, { target: ".off" }]
      }
    },
    pip: {
      initial: "unavailable",
      states: {
        unavailable: { on: { "screen.pipAvailable": { guard: { type: "isAvailable", params: ({ event }) => event }, target: "off" } } },
        off: {
          on: {
            "screen.togglePip": { actions: { type: "command", params: { to: PIP_ID, command: { type: "pip.enter" } } } },
            "screen.pipAvailable": { guard: { type: "isUnavailable", params: ({ event }) => event }, target: "unavailable" }
          }
        },
        on: {
          tags: ["pip"],
          on: { "screen.togglePip": { actions: { type: "command", params: { to: PIP_ID, command: { type: "pip.exit" } } } } }
        }
      },
      on: {
        "screen.pipChanged": [{ guard: { type: "isActive", params: ({ event }) => event }, target: ".on" }, { target: ".off" }]
      }
    }
  }
})

export type ScreenSnapshot = SnapshotFrom<typeof playerScreenMachine>

export const selectIsFullscreen = (snapshot: ScreenSnapshot | undefined): boolean => snapshot?.hasTag("fullscreen") ?? false
export const selectCanFullscreen = (snapshot: ScreenSnapshot | undefined): boolean =>
  snapshot !== undefined && !snapshot.matches({ fullscreen: "unavailable" })
export const selectIsPip = (snapshot: ScreenSnapshot | undefined): boolean => snapshot?.hasTag("pip") ?? false
export const selectCanPip = (snapshot: ScreenSnapshot | undefined): boolean =>
  snapshot !== undefined && !snapshot.matches({ pip: "unavailable" })
export const selectSize = (snapshot: ScreenSnapshot | undefined): PlayerSize => snapshot?.context.size ?? "normal"
