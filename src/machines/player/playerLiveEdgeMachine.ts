import { assign, enqueueActions, type SnapshotFrom, setup, stateIn } from "xstate"
import type { MediaCommand, MediaTiming } from "../../domain/MediaProtocol.ts"
import { CATCH_UP_RATE, LIVE_EDGE_TOLERANCE_S, LIVE_POLL_MS } from "../../domain/PlayerLimits.ts"
import { mediaOf } from "./playerMedia.ts"
import { behindLive, isSeekable } from "./playerTiming.ts"

export type LiveEdgeEvent =
  | ({ readonly type: "media.timing" } & MediaTiming)
  | { readonly type: "player.seekBy"; readonly seconds: number }
  | { readonly type: "player.seekTo"; readonly time: number }
  | { readonly type: "player.goLive" }
  /** a wall-clock moment of the window (epoch ms), e.g. a programme's start; `play` starts the picture there */
  | { readonly type: "player.seekToDate"; readonly at: number; readonly play?: boolean }
  /** behind live: play a little faster until the live edge is reached (again: stop) */
  | { readonly type: "player.catchUp" }
  /** playback stopped: the last position read no longer says anything */
  | { readonly type: "liveEdge.clear" }

interface PendingDate {
  readonly at: number
  readonly play: boolean
}

interface LiveEdgeContext {
  readonly timing: MediaTiming | null
  /** a moment asked for before the window (and its dates) were known: sought once they are */
  readonly pending: PendingDate | null
}

const timingOf = ({ type: _type, ...timing }: { readonly type: "media.timing" } & MediaTiming): MediaTiming => timing

/** Where on the media timeline a wall-clock moment is, once the window and its dates are known; null before. */
const timeOfDate = (timing: MediaTiming | null, at: number): number | null =>
  timing === null || timing.epoch === undefined || !isSeekable(timing) ? null : (at - timing.epoch) / 1000

/**
 * Where the playhead is: polled every 200 ms, a live stream is at its live edge within 10 s of
 * it and behind it otherwise; seeking (the seek bar, ←/→, double taps) needs a window of at least
 * 60 s on a live stream (SPEC §9), and is ignored until one has been seen. Seeks are clamped by
 * the media adapter, which knows the window. A wall-clock moment (a programme's start) is sought
 * by the window's dates, as soon as they are known. Behind live, the viewer may catch up: the
 * picture runs at 1.1× until it is within the live edge's 10 s.
 */
export const playerLiveEdgeMachine = setup({
  types: { context: {} as LiveEdgeContext, events: {} as LiveEdgeEvent },
  guards: {
    isVod: (_, timing: MediaTiming) => !timing.live,
    isAtLiveEdge: (_, timing: MediaTiming) => behindLive(timing) <= LIVE_EDGE_TOLERANCE_S,
    hasDvrWindow: (_, timing: MediaTiming) => isSeekable(timing),
    canSeek: stateIn({ window: "seekable" }),
    isBehind: stateIn({ position: "behindLiveEdge" })
  },
  actions: {
    toMedia: enqueueActions(({ system, enqueue }, command: MediaCommand) => {
      const media = mediaOf(system)
      if (media !== undefined) enqueue.sendTo(media, command)
    }),
    keepTiming: assign((_, timing: MediaTiming) => ({ timing })),
    forgetTiming: assign({ timing: null, pending: null }),
    keepPending: assign((_, pending: PendingDate) => ({ pending })),
    // a moment later than the live edge is not there yet: it is dropped; one before the window is clamped to its start
    seekPending: enqueueActions(({ context, system, enqueue }) => {
      const { pending, timing } = context
      const time = pending === null ? null : timeOfDate(timing, pending.at)
      const media = mediaOf(system)
      if (pending === null || time === null || timing === null) return
      enqueue.assign({ pending: null })
      if (media === undefined || time > timing.end) return
      enqueue.sendTo(media, { type: "media.seekTo", time } satisfies MediaCommand)
      if (pending.play) enqueue.sendTo(media, { type: "media.play" } satisfies MediaCommand)
    })
  },
  delays: { poll: LIVE_POLL_MS }
}).createMachine({
  id: "liveEdge",
  type: "parallel",
  context: { timing: null, pending: null },
  on: {
    "player.seekBy": {
      guard: "canSeek",
      actions: {
        type: "toMedia",
        params: ({ context, event }) => ({ type: "media.seekTo", time: (context.timing?.currentTime ?? 0) + event.seconds })
      }
    },
    "player.seekTo": {
      guard: "canSeek",
      actions: { type: "toMedia", params: ({ event }) => ({ type: "media.seekTo", time: event.time }) }
    },
    "player.seekToDate": {
      actions: [{ type: "keepPending", params: ({ event }) => ({ at: event.at, play: event.play === true }) }, "seekPending"]
    },
    "player.goLive": { actions: { type: "toMedia", params: { type: "media.seekToLive" } } },
    // a stopped player is neither live nor behind live until a source plays again
    "liveEdge.clear": { target: [".position.unknown", ".window.narrow", ".rate.normal"], actions: "forgetTiming" }
  },
  states: {
    polling: {
      initial: "waiting",
      states: {
        waiting: {
          after: { poll: { target: "waiting", reenter: true, actions: { type: "toMedia", params: { type: "media.probe" } } } }
        }
      }
    },
    position: {
      initial: "unknown",
      states: {
        unknown: {},
        vod: { tags: ["vod"] },
        atLiveEdge: { tags: ["live", "atLiveEdge"] },
        behindLiveEdge: { tags: ["live", "behindLiveEdge"] }
      },
      on: {
        "media.timing": [
          {
            guard: { type: "isVod", params: ({ event }) => timingOf(event) },
            target: ".vod",
            actions: [{ type: "keepTiming", params: ({ event }) => timingOf(event) }, "seekPending"]
          },
          {
            guard: { type: "isAtLiveEdge", params: ({ event }) => timingOf(event) },
            target: ".atLiveEdge",
            actions: [{ type: "keepTiming", params: ({ event }) => timingOf(event) }, "seekPending"]
          },
          { target: ".behindLiveEdge", actions: [{ type: "keepTiming", params: ({ event }) => timingOf(event) }, "seekPending"] }
        ]
      }
    },
    window: {
      initial: "narrow",
      states: {
        narrow: {},
        seekable: { tags: ["dvr"] }
      },
      on: {
        "media.timing": [
          { guard: { type: "hasDvrWindow", params: ({ event }) => timingOf(event) }, target: ".seekable" },
          { target: ".narrow" }
        ]
      }
    },
    rate: {
      initial: "normal",
      states: {
        normal: {
          on: { "player.catchUp": { guard: "isBehind", target: "catchingUp" } }
        },
        catchingUp: {
          tags: ["catchingUp"],
          entry: { type: "toMedia", params: { type: "media.rate", rate: CATCH_UP_RATE } },
          exit: { type: "toMedia", params: { type: "media.rate", rate: 1 } },
          on: {
            "player.catchUp": "normal",
            // a state's own transition takes the event from the machine's: live is gone to here too
            "player.goLive": { target: "normal", actions: { type: "toMedia", params: { type: "media.seekToLive" } } },
            "media.timing": { guard: { type: "isAtLiveEdge", params: ({ event }) => timingOf(event) }, target: "normal" }
          }
        }
      }
    }
  }
})

export type LiveEdgeSnapshot = SnapshotFrom<typeof playerLiveEdgeMachine>

export const selectTiming = (snapshot: LiveEdgeSnapshot | undefined): MediaTiming | null => snapshot?.context.timing ?? null
export const selectIsLive = (snapshot: LiveEdgeSnapshot | undefined): boolean => snapshot?.hasTag("live") ?? false
export const selectIsBehindLive = (snapshot: LiveEdgeSnapshot | undefined): boolean => snapshot?.hasTag("behindLiveEdge") ?? false
export const selectCanSeek = (snapshot: LiveEdgeSnapshot | undefined): boolean => snapshot?.hasTag("dvr") ?? false
/** Playing faster than normal to reach the live edge. */
export const selectIsCatchingUp = (snapshot: LiveEdgeSnapshot | undefined): boolean => snapshot?.hasTag("catchingUp") ?? false
/** whole ms behind live, for display and the `data-latency-ms` the benchmark reads */
export const selectLatencyMs = (snapshot: LiveEdgeSnapshot | undefined): number | null => {
  const timing = selectTiming(snapshot)
  return timing === null || !timing.live ? null : Math.round(behindLive(timing) * 1000)
}
