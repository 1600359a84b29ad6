import { assign, enqueueActions, type SnapshotFrom, setup } from "xstate"
import { MediaErrorCode } from "../../domain/MediaError.ts"
import type { MediaCommand, MediaFact, RecoveryKind } from "../../domain/MediaProtocol.ts"
import { mediaOf } from "./playerMedia.ts"
import { PLAYER_TUNING } from "./playerTuning.ts"

export interface PlaybackError {
  /** SPEC §8 media error code; null for the player token's fatal error, which has none */
  readonly code: number | null
  readonly message: string
}

export type PlaybackEvent =
  /** `startAt`: the moment of the window to start at (epoch ms); live without it, and on any retry */
  | { readonly type: "playback.load"; readonly source: string; readonly startAt?: number }
  | { readonly type: "playback.stop" }
  | { readonly type: "player.togglePlay" }
  | { readonly type: "player.retry" }
  | { readonly type: "telemetry.tokenRejected"; readonly message: string }
  | MediaFact

interface PlaybackContext {
  readonly source: string | null
  readonly error: PlaybackError | null
  /** recoveries tried since playback last ran */
  readonly attempts: number
  readonly recovery: RecoveryKind
  readonly firstFrameMs: number | null
}

type Fault = Extract<MediaFact, { type: "media.fault" }>

/**
 * One source from load to end: playing/paused/buffering, the endscreen, and the error path. A
 * fatal library error is retried a bounded number of times, each after a longer pause, before
 * the error box shows; play toggling does nothing while it does. A source lost with the network
 * loads again by itself once the browser is back online.
 */
export const playerPlaybackMachine = setup({
  types: { context: {} as PlaybackContext, events: {} as PlaybackEvent },
  guards: {
    canRecover: ({ context }) => context.attempts < PLAYER_TUNING.recoveryAttempts,
    lostConnection: ({ context }) => context.error?.code === MediaErrorCode.NO_INTERNET || context.error?.code === MediaErrorCode.NETWORK
  },
  actions: {
    toMedia: enqueueActions(({ system, enqueue }, command: MediaCommand) => {
      const media = mediaOf(system)
      if (media !== undefined) enqueue.sendTo(media, command)
    }),
    keepSource: assign((_, params: { readonly source: string }) => ({ source: params.source, error: null, attempts: 0 })),
    clearError: assign({ error: null, attempts: 0 }),
    resetAttempts: assign({ attempts: 0 }),
    keepError: assign((_, params: PlaybackError) => ({ error: { code: params.code, message: params.message } })),
    countAttempt: assign(({ context }, params: Fault) => ({
      attempts: context.attempts + 1,
      recovery: params.kind,
      error: { code: params.code, message: params.message }
    })),
    keepFirstFrame: assign(({ context }, params: { readonly ms: number }) => ({ firstFrameMs: context.firstFrameMs ?? params.ms }))
  },
  delays: {
    recoveryDelay: ({ context }) => PLAYER_TUNING.recoveryDelayMs * 2 ** Math.max(0, context.attempts - 1)
  }
}).createMachine({
  id: "playback",
  context: { source: null, error: null, attempts: 0, recovery: "network", firstFrameMs: null },
  initial: "idle",
  on: {
    "playback.load": {
      target: ".active",
      reenter: true,
      actions: [
        { type: "keepSource", params: ({ event }) => ({ source: event.source }) },
        {
          type: "toMedia",
          params: ({ event }) => ({
            type: "media.load",
            source: event.source,
            ...(event.startAt === undefined ? {} : { startAt: event.startAt })
          })
        }
      ]
    },
    "playback.stop": { target: ".idle", actions: { type: "toMedia", params: { type: "media.stop" } } },
    "media.firstFrame": { actions: { type: "keepFirstFrame", params: ({ event }) => event } }
  },
  states: {
    idle: {},
    active: {
      initial: "loading",
      on: {
        "media.failed": { target: ".failed", actions: { type: "keepError", params: ({ event }) => event } },
        "telemetry.tokenRejected": {
          target: ".failed",
          actions: { type: "keepError", params: ({ event }) => ({ code: null, message: event.message }) }
        },
        "media.fault": [
          { guard: "canRecover", target: ".recovering", actions: { type: "countAttempt", params: ({ event }) => event } },
          { target: ".failed", actions: { type: "keepError", params: ({ event }) => event } }
        ],
        "media.ended": ".ended"
      },
      states: {
        loading: {
          tags: ["buffering"],
          on: {
            "media.playing": "playing",
            "media.paused": "paused"
          }
        },
        playing: {
          tags: ["playing"],
          entry: "resetAttempts",
          on: {
            "media.paused": "paused",
            "media.waiting": "buffering",
            "player.togglePlay": { actions: { type: "toMedia", params: { type: "media.pause" } } }
          }
        },
        buffering: {
          tags: ["buffering", "playing"],
          on: {
            "media.playing": "playing",
            "media.paused": "paused",
            "player.togglePlay": { actions: { type: "toMedia", params: { type: "media.pause" } } }
          }
        },
        paused: {
          tags: ["paused"],
          on: {
            "media.playing": "playing",
            "media.waiting": "buffering",
            "player.togglePlay": { actions: { type: "toMedia", params: { type: "media.play" } } }
          }
        },
        ended: {
          tags: ["endscreen"],
          on: {
            "media.playing": "playing",
            "player.togglePlay": {
              actions: [
                { type: "toMedia", params: { type: "media.seekTo", time: 0 } },
                { type: "toMedia", params: { type: "media.play" } }
              ]
            }
          }
        },
        recovering: {
          tags: ["buffering", "recovering"],
          // the retry under way answers for itself once it has run
          on: { "media.fault": { actions: [] } },
          after: {
            recoveryDelay: {
              target: "loading",
              actions: { type: "toMedia", params: ({ context }) => ({ type: "media.recover", kind: context.recovery }) }
            }
          }
        },
        failed: {
          tags: ["error"],
          on: {
            "media.fault": { actions: [] },
            "player.retry": {
              target: "loading",
              actions: ["clearError", { type: "toMedia", params: ({ context }) => ({ type: "media.load", source: context.source ?? "" }) }]
            },
            // back online after the connection went: play again without being asked
            "media.reconnected": {
              guard: "lostConnection",
              target: "loading",
              actions: ["clearError", { type: "toMedia", params: ({ context }) => ({ type: "media.load", source: context.source ?? "" }) }]
            }
          }
        }
      }
    }
  }
})

export type PlaybackSnapshot = SnapshotFrom<typeof playerPlaybackMachine>

export const selectPlaybackError = (snapshot: PlaybackSnapshot | undefined): PlaybackError | null =>
  snapshot?.hasTag("error") === true ? snapshot.context.error : null
export const selectIsBuffering = (snapshot: PlaybackSnapshot | undefined): boolean => snapshot?.hasTag("buffering") ?? false
export const selectIsPlaying = (snapshot: PlaybackSnapshot | undefined): boolean => snapshot?.hasTag("playing") ?? false
export const selectIsPaused = (snapshot: PlaybackSnapshot | undefined): boolean => snapshot?.hasTag("paused") ?? false
export const selectIsEnded = (snapshot: PlaybackSnapshot | undefined): boolean => snapshot?.hasTag("endscreen") ?? false
export const selectIsRecovering = (snapshot: PlaybackSnapshot | undefined): boolean => snapshot?.hasTag("recovering") ?? false
export const selectFirstFrameMs = (snapshot: PlaybackSnapshot | undefined): number | null => snapshot?.context.firstFrameMs ?? null
/** the play button does something: there is a source and no error box over it */
export const selectCanTogglePlay = (snapshot: PlaybackSnapshot | undefined): boolean =>
  snapshot?.matches("active") === true && !snapshot.hasTag("error") && !snapshot.hasTag("recovering")
