import { and, assign, not, raise, type SnapshotFrom, sendParent, setup, stateIn } from "xstate"
import { CONTROLS_HIDE_MS, TOUCH_SEEK_S } from "../../domain/PlayerLimits.ts"
import { PLAYER_TUNING } from "./playerTuning.ts"

export type TapZone = "left" | "middle" | "right"

export type ControlsEvent =
  | { readonly type: "controls.pointerMove"; readonly pointerType: string }
  | { readonly type: "controls.pointerLeave" }
  /** keyboard focus or a key press inside the player */
  | { readonly type: "controls.activity" }
  /** keyboard focus arrived on one of the bar's controls */
  | { readonly type: "controls.focusIn" }
  /** focus left the bar */
  | { readonly type: "controls.focusOut" }
  | { readonly type: "controls.tap"; readonly zone: TapZone }
  | { readonly type: "controls.toggle" }
  | { readonly type: "screen.pointer"; readonly touch: boolean }
  | { readonly type: "media.playing" }
  | { readonly type: "media.paused" }
  | { readonly type: "media.ended" }
  | { readonly type: "media.failed" }
  | { readonly type: "media.fault" }
  | { readonly type: "telemetry.tokenRejected" }

/** What the parent is asked to do on a double tap. */
export type ControlsRequest = { readonly type: "player.seekBy"; readonly seconds: number }

const seekFor = (zone: TapZone): ControlsRequest => ({ type: "player.seekBy", seconds: zone === "left" ? -TOUCH_SEEK_S : TOUCH_SEEK_S })

/**
 * Whether the control bar shows, whether the pointer is over the player, and whether this is a
 * touch device. While playing, the bar goes away 2 s after the last sign of the viewer (pointer
 * movement, leaving, focus, a key); it stays while paused, ended, loading or failed, and while
 * keyboard focus is on one of its controls, which would otherwise be focused and invisible.
 */
export const playerControlsMachine = setup({
  types: { context: {} as { readonly tapZone: TapZone }, events: {} as ControlsEvent },
  guards: {
    isPlaying: stateIn({ playback: "playing" }),
    isFocusInBar: stateIn({ focus: "inBar" }),
    isTouch: (_, params: { readonly pointerType: string }) => params.pointerType === "touch",
    isSameSideZone: ({ context }, params: { readonly zone: TapZone }) => params.zone !== "middle" && params.zone === context.tapZone,
    isSideZone: (_, params: { readonly zone: TapZone }) => params.zone !== "middle",
    isTouchScreen: (_, params: { readonly touch: boolean }) => params.touch,
    isMouseScreen: (_, params: { readonly touch: boolean }) => !params.touch
  },
  actions: {
    keepZone: assign((_, params: { readonly zone: TapZone }) => ({ tapZone: params.zone })),
    toggle: raise({ type: "controls.toggle" }),
    show: raise({ type: "controls.activity" }),
    seek: sendParent((_, params: { readonly zone: TapZone }) => seekFor(params.zone))
  },
  delays: { hide: CONTROLS_HIDE_MS, doubleTap: PLAYER_TUNING.doubleTapMs }
}).createMachine({
  id: "controls",
  type: "parallel",
  context: { tapZone: "middle" },
  states: {
    playback: {
      initial: "stopped",
      states: {
        stopped: { on: { "media.playing": "playing" } },
        playing: {
          on: {
            "media.paused": "stopped",
            "media.ended": "stopped",
            "media.failed": "stopped",
            "media.fault": "stopped",
            "telemetry.tokenRejected": "stopped"
          }
        }
      }
    },
    visibility: {
      initial: "shown",
      states: {
        shown: {
          tags: ["controlsShown"],
          after: { hide: { guard: and(["isPlaying", not("isFocusInBar")]), target: "hidden" } },
          on: {
            "controls.toggle": "hidden",
            // a fresh 2 s from every sign of the viewer, and from playback starting; the picture
            // moving on after a stall is no start, and leaves the time already counting as it is
            "controls.activity": { target: "shown", reenter: true },
            "controls.pointerLeave": { target: "shown", reenter: true },
            "controls.focusOut": { target: "shown", reenter: true },
            "media.playing": { guard: not("isPlaying"), target: "shown", reenter: true }
          }
        },
        hidden: {
          on: {
            "controls.toggle": "shown",
            "controls.activity": "shown",
            "controls.focusIn": "shown",
            "media.paused": "shown",
            "media.ended": "shown",
            "media.failed": "shown",
            "media.fault": "shown",
            "telemetry.tokenRejected": "shown"
          }
        }
      }
    },
    focus: {
      initial: "elsewhere",
      states: {
        elsewhere: { on: { "controls.focusIn": "inBar" } },
        inBar: { on: { "controls.focusOut": "elsewhere" } }
      }
    },
    hover: {
      initial: "away",
      states: {
        away: {},
        hovered: { tags: ["hovered"], on: { "controls.pointerLeave": "away" } }
      },
      on: {
        "controls.pointerMove": [
          { guard: { type: "isTouch", params: ({ event }) => event }, target: ".away" },
          { target: ".hovered", actions: raise({ type: "controls.activity" }) }
        ]
      }
    },
    pointer: {
      initial: "mouse",
      states: {
        mouse: { on: { "screen.pointer": { guard: { type: "isTouchScreen", params: ({ event }) => event }, target: "touch" } } },
        touch: {
          tags: ["touch"],
          on: { "screen.pointer": { guard: { type: "isMouseScreen", params: ({ event }) => event }, target: "mouse" } }
        }
      },
      on: {
        "controls.pointerMove": [{ guard: { type: "isTouch", params: ({ event }) => event }, target: ".touch" }, { target: ".mouse" }]
      }
    },
    taps: {
      initial: "idle",
      states: {
        idle: {
          on: {
            "controls.tap": [
              {
                guard: { type: "isSideZone", params: ({ event }) => event },
                target: "waitingForSecondTap",
                actions: { type: "keepZone", params: ({ event }) => event }
              },
              { actions: "toggle" }
            ]
          }
        },
        waitingForSecondTap: {
          after: { doubleTap: { target: "idle", actions: "toggle" } },
          on: {
            "controls.tap": [
              {
                guard: { type: "isSameSideZone", params: ({ event }) => event },
                target: "idle",
                actions: [{ type: "seek", params: ({ event }) => event }, "show"]
              },
              // a tap elsewhere settles the first one as a single tap and starts over
              {
                guard: { type: "isSideZone", params: ({ event }) => event },
                target: "waitingForSecondTap",
                reenter: true,
                actions: ["toggle", { type: "keepZone", params: ({ event }) => event }]
              },
              // two single taps: the first toggle and the middle one's cancel out
              { target: "idle" }
            ]
          }
        }
      }
    }
  }
})

export type ControlsSnapshot = SnapshotFrom<typeof playerControlsMachine>

export const selectControlsShown = (snapshot: ControlsSnapshot | undefined): boolean => snapshot?.hasTag("controlsShown") ?? true
export const selectHovered = (snapshot: ControlsSnapshot | undefined): boolean => snapshot?.hasTag("hovered") ?? false
export const selectIsTouch = (snapshot: ControlsSnapshot | undefined): boolean => snapshot?.hasTag("touch") ?? false
