import { and, assign, type EventObject, enqueueActions, fromCallback, fromPromise, sendParent, sendTo, setup } from "xstate"
import type { PlayerApp } from "../../domain/Connection.ts"
import type { MediaTiming } from "../../domain/MediaProtocol.ts"
import type { MediaMetadata } from "../../domain/PlayerUi.ts"
import type {
  AnalyticsCommand,
  AnalyticsMedia,
  HealthCommand,
  HealthContext,
  MeteringCommand,
  PlayerGrant,
  TelemetrySession,
  TokenRejected
} from "../../domain/TelemetryProtocol.ts"
import { notProvided } from "../shared/notProvided.ts"
import { analyticsMediaOf, healthContextOf, healthEvents } from "./playerTelemetry.ts"

export type TelemetryEvent =
  | { readonly type: "telemetry.load"; readonly metadata: MediaMetadata; readonly source: string }
  /** the same source, described anew once its timing says whether it is live */
  | { readonly type: "telemetry.describe"; readonly metadata: MediaMetadata; readonly source: string }
  | { readonly type: "media.playing" }
  | { readonly type: "media.paused" }
  | { readonly type: "media.waiting" }
  | { readonly type: "media.ended" }
  | { readonly type: "media.failed" }
  | { readonly type: "media.fault" }
  | { readonly type: "media.autoMuted" }
  | { readonly type: "media.volumeChanged" }
  | { readonly type: "media.started"; readonly ms: number }
  | { readonly type: "screen.resized"; readonly width: number }
  | ({ readonly type: "media.timing" } & MediaTiming)
  | TokenRejected

interface TelemetryContext {
  readonly app: PlayerApp
  readonly session: TelemetrySession | null
  readonly media: AnalyticsMedia | null
  readonly position: number
  readonly playing: boolean
  /** health events from before the beacon ran */
  readonly backlog: ReadonlyArray<string>
  /** the source's time to first picture, until the beacon runs to take it */
  readonly firstFrameMs: number | null
}

const grantOf = (context: TelemetryContext): PlayerGrant | null => context.session?.grant ?? null
const BACKLOG_MAX = 10

/**
 * Telemetry of one player page (SPEC §7): with what the player token grants, analytics follow
 * playback, the first playback of each stream is metered, a health beacon per stream reports the
 * media's events, and the clock is synced with the server once. It starts once the picture does
 * (or fails to), so none of its calls compete with the first frame. A token the server refuses
 * stops the player, which the parent shows as its fatal 'token' error.
 */
export const playerTelemetryMachine = setup({
  types: { context: {} as TelemetryContext, events: {} as TelemetryEvent, input: {} as { readonly app: PlayerApp } },
  actors: {
    openSession: fromPromise<TelemetrySession | null>(notProvided("openSession")),
    analytics: fromCallback<AnalyticsCommand, { readonly sessionId: string }>(notProvided("analytics")),
    health: fromCallback<HealthCommand, HealthContext>(notProvided("health")),
    metering: fromCallback<MeteringCommand, PlayerGrant>(notProvided("metering")),
    timeSync: fromCallback<EventObject>(notProvided("timeSync"))
  },
  guards: {
    hasAnalytics: ({ context }) => grantOf(context)?.analytics === true,
    hasGrant: ({ context }) => grantOf(context) !== null,
    isPlaying: ({ context }) => context.playing,
    knowsMedia: ({ context }) => context.media !== null
  },
  actions: {
    keepSession: assign((_, session: TelemetrySession | null) => ({ session })),
    keepMedia: assign(({ context }, params: { readonly metadata: MediaMetadata; readonly source: string }) => ({
      media: analyticsMediaOf(params.metadata, params.source, context.app)
    })),
    keepPosition: assign((_, params: { readonly currentTime: number }) => ({ position: params.currentTime })),
    keepPlaying: assign((_, params: { readonly playing: boolean }) => ({ playing: params.playing })),
    remember: assign(({ context }, params: { readonly event: string }) => ({
      backlog: [...context.backlog, params.event].slice(-BACKLOG_MAX)
    })),
    playIfPlaying: sendTo(
      "analytics",
      ({ context }): AnalyticsCommand => ({ type: context.playing ? "analytics.play" : "analytics.pause" })
    ),
    keepFirstFrame: assign((_, params: { readonly ms: number }) => ({ firstFrameMs: params.ms })),
    // each source's time to its first picture, for the operator's view of how streams start
    recordFirstFrame: enqueueActions(({ context, enqueue }) => {
      if (context.firstFrameMs === null) return
      enqueue.sendTo("health", {
        type: "health.record",
        event: "firstframe",
        currentTime: context.position,
        firstFrameMs: context.firstFrameMs
      } satisfies HealthCommand)
      enqueue.assign({ firstFrameMs: null })
    }),
    recordBacklog: enqueueActions(({ context, enqueue }) => {
      for (const event of context.backlog)
        enqueue.sendTo("health", { type: "health.record", event, currentTime: context.position } satisfies HealthCommand)
      enqueue.assign({ backlog: [] })
    }),
    toAnalytics: sendTo("analytics", (_, command: AnalyticsCommand) => command),
    loadAnalytics: sendTo(
      "analytics",
      ({ context }): AnalyticsCommand =>
        context.media === null ? { type: "analytics.pause" } : { type: "analytics.load", media: context.media }
    ),
    record: sendTo(
      "health",
      ({ context }, params: { readonly event: string }): HealthCommand => ({
        type: "health.record",
        event: params.event,
        currentTime: context.position
      })
    ),
    meterAgain: sendTo("metering", { type: "metering.record" } satisfies MeteringCommand),
    stopPlayer: sendParent((_, fact: TokenRejected) => fact)
  }
}).createMachine({
  id: "telemetry",
  context: ({ input }) => ({ app: input.app, session: null, media: null, position: 0, playing: false, backlog: [], firstFrameMs: null }),
  initial: "waitingForPicture",
  on: {
    "telemetry.load": { actions: { type: "keepMedia", params: ({ event }) => event } },
    "telemetry.describe": { actions: { type: "keepMedia", params: ({ event }) => event } },
    "media.timing": { actions: { type: "keepPosition", params: ({ event }) => event } },
    "media.started": { actions: { type: "keepFirstFrame", params: ({ event }) => event } }
  },
  states: {
    waitingForPicture: {
      on: {
        "media.playing": {
          target: "opening",
          actions: [
            { type: "keepPlaying", params: { playing: true } },
            { type: "remember", params: { event: "playing" } }
          ]
        },
        "media.failed": { target: "opening", actions: { type: "remember", params: { event: "error" } } },
        "media.fault": { target: "opening", actions: { type: "remember", params: { event: "error" } } }
      }
    },
    opening: {
      on: {
        "media.playing": {
          actions: [
            { type: "keepPlaying", params: { playing: true } },
            { type: "remember", params: { event: "playing" } }
          ]
        },
        "media.paused": {
          actions: [
            { type: "keepPlaying", params: { playing: false } },
            { type: "remember", params: { event: "pause" } }
          ]
        },
        "media.waiting": { actions: { type: "remember", params: { event: "waiting" } } },
        "media.ended": {
          actions: [
            { type: "keepPlaying", params: { playing: false } },
            { type: "remember", params: { event: "ended" } }
          ]
        },
        "media.failed": {
          actions: [
            { type: "keepPlaying", params: { playing: false } },
            { type: "remember", params: { event: "error" } }
          ]
        },
        "media.fault": { actions: { type: "remember", params: { event: "error" } } },
        "media.volumeChanged": { actions: { type: "remember", params: { event: healthEvents["media.volumeChanged"] } } },
        "screen.resized": { actions: { type: "remember", params: { event: healthEvents["screen.resized"] } } }
      },
      invoke: {
        src: "openSession",
        onDone: { target: "running", actions: { type: "keepSession", params: ({ event }) => event.output } },
        onError: { target: "off" }
      }
    },
    /** the app could not say who is watching: nothing is reported */
    off: {},
    running: {
      type: "parallel",
      invoke: { src: "timeSync" },
      states: {
        analytics: {
          initial: "deciding",
          states: {
            deciding: { always: [{ guard: "hasAnalytics", target: "on" }, { target: "off" }] },
            off: {},
            on: {
              invoke: { id: "analytics", src: "analytics", input: ({ context }) => ({ sessionId: context.session?.sessionId ?? "" }) },
              entry: ["loadAnalytics", "playIfPlaying"],
              on: {
                "telemetry.load": { actions: [{ type: "keepMedia", params: ({ event }) => event }, "loadAnalytics"] },
                "telemetry.describe": { actions: [{ type: "keepMedia", params: ({ event }) => event }, "loadAnalytics"] },
                "media.playing": { actions: { type: "toAnalytics", params: { type: "analytics.play" } } },
                "media.paused": { actions: { type: "toAnalytics", params: { type: "analytics.pause" } } },
                "media.ended": { actions: { type: "toAnalytics", params: { type: "analytics.pause" } } },
                "media.failed": { actions: { type: "toAnalytics", params: { type: "analytics.pause" } } },
                "media.autoMuted": { actions: { type: "toAnalytics", params: { type: "analytics.mute", muted: true } } },
                "media.timing": {
                  actions: [
                    { type: "keepPosition", params: ({ event }) => event },
                    {
                      type: "toAnalytics",
                      params: ({ event }) => ({ type: "analytics.progress", position: event.currentTime, duration: event.end })
                    }
                  ]
                }
              }
            }
          }
        },
        metering: {
          initial: "deciding",
          states: {
            deciding: {
              always: [
                { guard: and(["hasGrant", "isPlaying"]), target: "metered" },
                { guard: "hasGrant", target: "waitingForPlayback" },
                { target: "off" }
              ]
            },
            off: {},
            waitingForPlayback: { on: { "media.playing": "metered" } },
            // the adapter meters once when it starts, and again for each stream played after
            metered: {
              invoke: { id: "metering", src: "metering", input: ({ context }) => grantOf(context) as PlayerGrant },
              initial: "counted",
              states: {
                counted: { on: { "telemetry.load": "nextStream" } },
                nextStream: { on: { "media.playing": { target: "counted", actions: "meterAgain" } } }
              },
              on: { "telemetry.tokenRejected": { actions: { type: "stopPlayer", params: ({ event }) => event } } }
            }
          }
        },
        health: {
          initial: "deciding",
          states: {
            deciding: { always: [{ guard: "knowsMedia", target: "recording" }, { target: "waiting" }] },
            waiting: { on: { "telemetry.load": { target: "recording", actions: { type: "keepMedia", params: ({ event }) => event } } } },
            // one beacon per stream: stopping it sends what it still holds
            recording: {
              invoke: { id: "health", src: "health", input: ({ context }) => healthContextOf(context) },
              entry: ["recordBacklog", "recordFirstFrame"],
              on: {
                "telemetry.load": { target: "recording", reenter: true, actions: { type: "keepMedia", params: ({ event }) => event } },
                "media.playing": { actions: { type: "record", params: { event: healthEvents["media.playing"] } } },
                "media.started": { actions: [{ type: "keepFirstFrame", params: ({ event }) => event }, "recordFirstFrame"] },
                "media.paused": { actions: { type: "record", params: { event: healthEvents["media.paused"] } } },
                "media.waiting": { actions: { type: "record", params: { event: healthEvents["media.waiting"] } } },
                "media.ended": { actions: { type: "record", params: { event: healthEvents["media.ended"] } } },
                "media.failed": { actions: { type: "record", params: { event: healthEvents["media.failed"] } } },
                "media.fault": { actions: { type: "record", params: { event: healthEvents["media.fault"] } } },
                // the beacon lets only the last of a burst of these through (800 ms)
                "media.volumeChanged": { actions: { type: "record", params: { event: healthEvents["media.volumeChanged"] } } },
                "screen.resized": { actions: { type: "record", params: { event: healthEvents["screen.resized"] } } },
                "media.timing": {
                  actions: [
                    { type: "keepPosition", params: ({ event }) => event },
                    { type: "record", params: { event: "timeupdate" } }
                  ]
                }
              }
            }
          }
        }
      }
    }
  }
})
