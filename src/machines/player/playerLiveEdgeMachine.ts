import { assign, enqueueActions, type SnapshotFrom, setup, stateIn } from "xstate"
import type { MediaCommand, MediaTiming } from "../../domain/MediaProtocol.ts"
import { LIVE_EDGE_TOLERANCE_S, LIVE_POLL_MS } from "../../domain/PlayerLimits.ts"
import { mediaOf } from "./playerMedia.ts"
import { behindLive, isSeekable } from "./playerTiming.ts"

export type LiveEdgeEvent =
  | ({ readonly type: "media.timing" } & MediaTiming)
  | { readonly type: "player.seekBy"; readonly seconds: number }
  | { readonly type: "player.seekTo"; readonly time: number }
  | { readonly type: "player.goLive" }
  /** playback stopped: the last position read no longer says anything */
  | { readonly type: "liveEdge.clear" }

interface LiveEdgeContext {
  readonly timing: MediaTiming | null
}

const timingOf = ({ type: _type, ...timing }: { readonly type: "media.timing" } & MediaTiming): MediaTiming => timing

/**
 * Where the playhead is: polled every 200 ms, a live stream is at its live edge within 10 s of
 * it and behind it otherwise; seeking (the seek bar, ←/→, double taps) needs a window of at least
 * 60 s on a live stream (SPEC §9), and is ignored until one has been seen. Seeks are clamped by
 * the media adapter, which knows the window.
 */
export const playerLiveEdgeMachine = setup({
  types: { context: {} as LiveEdgeContext, events: {} as LiveEdgeEvent },
  guards: {
    isVod: (_, timing: MediaTiming) => !timing.live,
    isAtLiveEdge: (_, timing: MediaTiming) => behindLive(timing) <= LIVE_EDGE_TOLERANCE_S,
    hasDvrWindow: (_, timing: MediaTiming) => isSeekable(timing),
    canSeek: stateIn({ window: "seekable" })
  },
  actions: {
    toMedia: enqueueActions(({ system, enqueue }, command: MediaCommand) => {
      const media = mediaOf(system)
      if (media !== undefined) enqueue.sendTo(media, command)
    }),
    keepTiming: assign((_, timing: MediaTiming) => ({ timing })),
    forgetTiming: assign({ timing: null })
  },
  delays: { poll: LIVE_POLL_MS }
}).createMachine({
  id: "liveEdge",
  type: "parallel",
  context: { timing: null },
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
    "player.goLive": { actions: { type: "toMedia", params: { type: "media.seekToLive" } } },
    // a stopped player is neither live nor behind live until a source plays again
    "liveEdge.clear": { target: [".position.unknown", ".window.narrow"], actions: "forgetTiming" }
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
            actions: { type: "keepTiming", params: ({ event }) => timingOf(event) }
          },
          {
            guard: { type: "isAtLiveEdge", params: ({ event }) => timingOf(event) },
            target: ".atLiveEdge",
            actions: { type: "keepTiming", params: ({ event }) => timingOf(event) }
          },
          { target: ".behindLiveEdge", actions: { type: "keepTiming", params: ({ event }) => timingOf(event) } }
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
    }
  }
})

export type LiveEdgeSnapshot = SnapshotFrom<typeof playerLiveEdgeMachine>

export const selectTiming = (snapshot: LiveEdgeSnapshot | undefined): MediaTiming | null => snapshot?.context.timing ?? null
export const selectIsLive = (snapshot: LiveEdgeSnapshot | undefined): boolean => snapshot?.hasTag("live") ?? false
export const selectIsBehindLive = (snapshot: LiveEdgeSnapshot | undefined): boolean => snapshot?.hasTag("behindLiveEdge") ?? false
export const selectCanSeek = (snapshot: LiveEdgeSnapshot | undefined): boolean => snapshot?.hasTag("dvr") ?? false
/** whole ms behind live, for display and the `data-latency-ms` the benchmark reads */
export const selectLatencyMs = (snapshot: LiveEdgeSnapshot | undefined): number | null => {
  const timing = selectTiming(snapshot)
  return timing === null || !timing.live ? null : Math.round(behindLive(timing) * 1000)
}
