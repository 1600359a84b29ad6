import { assign, enqueueActions, forwardTo, fromCallback, fromPromise, raise, type SnapshotFrom, sendTo, setup } from "xstate"
import type { CastCommand, CastInput } from "../../domain/CastProtocol.ts"
import type { Answer } from "../../domain/contract/answer.ts"
import type { MediaCommand, MediaInput, MediaTiming } from "../../domain/MediaProtocol.ts"
import { LOW_LATENCY_PLAYER, playerPath, sourceFor, TV_PLAYER } from "../../domain/playerChoice.ts"
import type { FullscreenCommand, FullscreenInput, PipCommand, PipInput } from "../../domain/ScreenProtocol.ts"
import type { Stream } from "../../domain/Stream.ts"
import { failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import { type NowNextSnapshot, nowNextMachine, nowNextOfStreams } from "../streams/nowNextMachine.ts"
import { playerTelemetryMachine } from "../telemetry/playerTelemetryMachine.ts"
import { playerAccessMachine } from "./playerAccessMachine.ts"
import { CAST_ID, playerCastMachine } from "./playerCastMachine.ts"
import { playerControlsMachine } from "./playerControlsMachine.ts"
import type { PlayerEvent, PlayerInput } from "./playerEvents.ts"
import { playerGuideWindowMachine } from "./playerGuideWindowMachine.ts"
import { playerLiveEdgeMachine } from "./playerLiveEdgeMachine.ts"
import { MEDIA_ID } from "./playerMedia.ts"
import {
  attachOf,
  CHANNEL_RETRY_MS,
  currentStream,
  guideOf,
  initialContext,
  type PlayerMachineContext,
  startIndex,
  streamsOf,
  syncQuery,
  watchedOf
} from "./playerPage.ts"
import { playerPlaybackMachine } from "./playerPlaybackMachine.ts"
import { withDefault, withoutStart, withStart } from "./playerQuery.ts"
import { FULLSCREEN_ID, PIP_ID, playerScreenMachine } from "./playerScreenMachine.ts"
import { playerStartOverMachine, startOverOfPage } from "./playerStartOverMachine.ts"
import { mediaKindOf, sameKind, UNKNOWN_KIND } from "./playerTiming.ts"
import { playerVolumeMachine } from "./playerVolumeMachine.ts"

export const PLAYER_STREAMS_FAILED_MESSAGE = "The streams could not be loaded."

/**
 * The player page: loads the streams, plays the selected one and switches without a reload. Once
 * the view attaches its video the adapters (media, fullscreen, picture-in-picture, cast) run as
 * actors, and child machines own each concern: playback and its errors, the control bar, volume,
 * the live edge, the screen and casting. Adapter facts and view commands are routed to them here.
 * Once the list is in, another child tells what airs now and next on its streams, and one more
 * asks a late arrival whether to start the programme from its beginning (or starts the page at
 * the moment its link names); the TV player's seek bar gets the programmes of the window.
 */

export const playerMachine = setup({
  types: {
    context: {} as PlayerMachineContext,
    events: {} as PlayerEvent,
    input: {} as PlayerInput,
    children: {} as {
      media: "media"
      fullscreen: "fullscreen"
      pip: "pip"
      cast: "cast"
      playback: "playback"
      controls: "controls"
      volume: "volume"
      liveEdge: "liveEdge"
      screen: "screen"
      casting: "casting"
      telemetry: "telemetry"
      nowNext: "nowNext"
      access: "access"
      startOver: "startOver"
      guideWindow: "guideWindow"
    }
  },
  actors: {
    loadStreams: fromPromise<Answer<"streams">>(notProvided("loadStreams")),
    media: fromCallback<MediaCommand, MediaInput>(notProvided("media")),
    fullscreen: fromCallback<FullscreenCommand, FullscreenInput>(notProvided("fullscreen")),
    pip: fromCallback<PipCommand, PipInput>(notProvided("pip")),
    // only the TV player casts (SPEC §1): the low-latency one never loads a Cast sender
    cast: fromCallback<CastCommand, CastInput & { readonly canCast?: boolean }>(notProvided("cast")),
    playback: playerPlaybackMachine,
    controls: playerControlsMachine,
    volume: playerVolumeMachine,
    liveEdge: playerLiveEdgeMachine,
    screen: playerScreenMachine,
    casting: playerCastMachine,
    telemetry: playerTelemetryMachine,
    nowNext: nowNextMachine,
    access: playerAccessMachine,
    startOver: playerStartOverMachine,
    guideWindow: playerGuideWindowMachine
  },
  guards: {
    gotStreams: (_, answer: Answer<"streams">) => streamsOf(answer).length > 0,
    gotNoStreams: (_, answer: Answer<"streams">) => answer._tag === "ok" && answer.body.success && answer.body.data.length === 0,
    // ?default=99 of an old link, or ?default=abc: another stream starts than the one named;
    // ?stream=ID names its stream by id, and `default` is written to follow
    gotStreamsNamedAmiss: ({ context }, answer: Answer<"streams">) => {
      const streams = streamsOf(answer)
      const named = new URLSearchParams(context.search).get("default")
      return streams.length > 0 && (named !== null || context.streamId !== null) && named !== String(startIndex(context, streams))
    },
    isLowLatency: ({ context }) => context.player === LOW_LATENCY_PLAYER,
    opensLowLatencyAtMoment: ({ context }) => context.player === LOW_LATENCY_PLAYER && context.startAt !== null,
    isOtherStream: ({ context }, params: { readonly index: number }) =>
      params.index !== context.index && context.streams[params.index] !== undefined,
    isUnderMaintenance: ({ context }) => currentStream(context)?.maintenance_mode === true,
    hasSource: ({ context }) => sourceFor(currentStream(context), context.player) !== null,
    changesKind: ({ context }, timing: MediaTiming) => !sameKind(context.kind, mediaKindOf(timing)),
    allowsFullscreen: ({ context }) => context.chrome.fullscreen
  },
  actions: {
    navigate: (_, _params: { readonly to: string; readonly replace: boolean }) => {},
    keepStreams: assign(({ context }, answer: Answer<"streams">) => {
      const streams = streamsOf(answer)
      return { streams, index: startIndex(context, streams), streamId: null }
    }),
    // the address names the stream that plays, for a reload or a link to the other player
    keepQuery: assign(({ context }) => ({ search: withDefault(context.search, context.index) })),
    keepRenewedStreams: assign(({ context }, streams: ReadonlyArray<Stream>) => ({
      streams,
      index: context.index < streams.length ? context.index : 0
    })),
    keepListFailure: assign((_, answer: Answer<"streams">) => ({ error: `${PLAYER_STREAMS_FAILED_MESSAGE} ${failureHint(answer)}` })),
    clearError: assign({ error: null }),
    // a start the page was opened with (`?stream=&from=`) was about the stream it opened with
    selectStream: assign(({ context }, params: { readonly index: number }) => ({
      index: params.index,
      search: withDefault(withoutStart(context.search), params.index),
      played: false,
      startAt: null
    })),
    notePlayed: assign({ played: true }),
    loadSource: sendTo("playback", ({ context }) => ({
      type: "playback.load" as const,
      source: sourceFor(currentStream(context), context.player) ?? "",
      ...(context.startAt === null ? {} : { startAt: context.startAt })
    })),
    // only the page's first source starts at the moment asked for; any later load plays live
    forgetStart: assign({ startAt: null }),
    tellWatching: sendTo("startOver", ({ context }) => ({
      type: "startOver.watching" as const,
      streamId: currentStream(context)?.id ?? 0
    })),
    tellGuide: enqueueActions(({ enqueue }, snapshot: NowNextSnapshot) => {
      const guide = guideOf(snapshot)
      if (guide !== null) enqueue.sendTo("startOver", { type: "startOver.guide" as const, ...guide })
    }),
    // the TV player plays the programme from its start in the window it already has
    startFrom: raise((_, params: { readonly at: number }) => ({ type: "player.seekToDate" as const, at: params.at, play: true })),
    reportSource: sendTo("telemetry", ({ context }) => ({ type: "telemetry.load" as const, ...watchedOf(context) })),
    // a connected Cast device plays what plays here
    castSource: sendTo("cast", ({ context }) => ({
      type: "cast.media" as const,
      source: sourceFor(currentStream(context), context.player) ?? "",
      title: currentStream(context)?.title ?? ""
    })),
    forgetKind: assign({ kind: UNKNOWN_KIND }),
    keepKind: assign((_, timing: MediaTiming) => ({ kind: mediaKindOf(timing) })),
    // a VOD is told apart from a live stream only once its playlist is in
    describeSource: sendTo("telemetry", ({ context }) => ({ type: "telemetry.describe" as const, ...watchedOf(context) })),
    stopPlayback: sendTo("playback", { type: "playback.stop" as const }),
    // what the live edge last read belongs to the stopped source: no chip may go on showing it
    forgetTiming: sendTo("liveEdge", { type: "liveEdge.clear" as const }),
    // the origin refused the source: the access child finds out why and tells the viewer
    checkAccess: sendTo("access", ({ context }) => ({
      type: "access.check" as const,
      source: sourceFor(currentStream(context), context.player) ?? ""
    })),
    clearAccess: sendTo("access", { type: "access.clear" as const }),
    retryPlayback: sendTo("playback", { type: "player.retry" as const })
  }
}).createMachine({
  id: "player",
  context: ({ input }) => initialContext(input),
  initial: "loading",
  states: {
    loading: {
      tags: ["listLoading"],
      invoke: {
        src: "loadStreams",
        onDone: [
          {
            guard: { type: "gotStreamsNamedAmiss", params: answerOf },
            target: "ready",
            actions: [
              { type: "keepStreams", params: answerOf },
              "keepQuery",
              { type: "navigate", params: ({ context }) => syncQuery(context) }
            ]
          },
          { guard: { type: "gotStreams", params: answerOf }, target: "ready", actions: { type: "keepStreams", params: answerOf } },
          { guard: { type: "gotNoStreams", params: answerOf }, target: "empty" },
          { target: "failed", actions: { type: "keepListFailure", params: answerOf } }
        ]
      }
    },
    failed: { on: { "streams.retry": { target: "loading", actions: "clearError" } } },
    empty: { on: { "streams.retry": { target: "loading" } } },
    ready: {
      // the low-latency playlist has no window: a page opened there at a moment (`?from=`) is the TV player's
      always: {
        guard: "opensLowLatencyAtMoment",
        actions: [
          { type: "navigate", params: ({ context }) => ({ to: `${playerPath(TV_PLAYER)}${context.search}`, replace: true }) },
          "forgetStart"
        ]
      },
      invoke: [
        // after the list, beside playback rather than before it: the first frame never waits for it
        {
          ...nowNextOfStreams,
          onSnapshot: {
            actions: {
              type: "tellGuide",
              params: ({ event }: { readonly event: { readonly snapshot: unknown } }) => event.snapshot as NowNextSnapshot
            }
          }
        },
        startOverOfPage
      ],
      on: {
        "startOver.begin": { actions: forwardTo("startOver") },
        "startOver.watchLive": { actions: forwardTo("startOver") },
        "startOver.accepted": [
          // the low-latency player has no window: the TV player takes over at that moment
          {
            guard: "isLowLatency",
            actions: {
              type: "navigate",
              params: ({ context, event }) => ({
                to: `${playerPath(TV_PLAYER)}${withStart(context.search, event.streamId, event.at)}`,
                replace: false
              })
            }
          },
          { actions: { type: "startFrom", params: ({ event }) => event } }
        ]
      },
      initial: "detached",
      states: {
        detached: {
          on: {
            "media.attach": { target: "attached" },
            "player.select": {
              guard: { type: "isOtherStream", params: ({ event }) => ({ index: event.index }) },
              actions: [
                { type: "selectStream", params: ({ event }) => ({ index: event.index }) },
                { type: "navigate", params: ({ context }) => syncQuery(context) }
              ]
            }
          }
        },
        attached: {
          invoke: [
            {
              id: "media",
              systemId: MEDIA_ID,
              src: "media",
              input: ({ context, event }) => ({ element: attachOf(event).element, lowLatency: context.player === LOW_LATENCY_PLAYER })
            },
            {
              id: "fullscreen",
              systemId: FULLSCREEN_ID,
              src: "fullscreen",
              input: ({ event }) => ({ element: attachOf(event).element, container: attachOf(event).container })
            },
            { id: "pip", systemId: PIP_ID, src: "pip", input: ({ event }) => ({ element: attachOf(event).element }) },
            {
              id: "cast",
              systemId: CAST_ID,
              src: "cast",
              input: ({ context, event }) => ({ element: attachOf(event).element, canCast: context.player === TV_PLAYER })
            },
            { id: "playback", src: "playback" },
            { id: "controls", src: "controls" },
            { id: "volume", src: "volume" },
            { id: "liveEdge", src: "liveEdge" },
            { id: "screen", src: "screen" },
            { id: "casting", src: "casting" },
            { id: "telemetry", src: "telemetry", input: ({ context }) => ({ app: context.player === LOW_LATENCY_PLAYER ? "lls" : "tv" }) },
            { id: "access", src: "access" }
          ],
          initial: "choosing",
          on: {
            "player.select": [
              {
                guard: { type: "isOtherStream", params: ({ event }) => ({ index: event.index }) },
                // re-entering `choosing` switches the source while the media actor (and element) stay
                target: ".choosing",
                actions: [
                  { type: "selectStream", params: ({ event }) => ({ index: event.index }) },
                  { type: "navigate", params: ({ context }) => syncQuery(context) }
                ]
              },
              // choosing the stream that is already on clears an error box
              { actions: "retryPlayback" }
            ],
            "media.detach": { target: "detached" },
            "media.playing": { actions: ["notePlayed", forwardTo("playback"), forwardTo("controls"), forwardTo("telemetry")] },
            // our origin's feed of the channel is starting or lost its signal: say so, and ask again soon
            "media.unavailable": { target: ".unavailable" },
            "media.paused": { actions: [forwardTo("playback"), forwardTo("controls"), forwardTo("telemetry")] },
            "media.ended": { actions: [forwardTo("playback"), forwardTo("controls"), forwardTo("telemetry")] },
            "media.failed": { actions: [forwardTo("playback"), forwardTo("controls"), forwardTo("telemetry")] },
            "media.fault": { actions: [forwardTo("playback"), forwardTo("controls"), forwardTo("telemetry")] },
            "media.waiting": { actions: [forwardTo("playback"), forwardTo("telemetry")] },
            // refused (staff ended it, the account's limit, an old grant): stopped until the access child says otherwise
            "media.refused": { target: ".refused" },
            // the refused source may open now (or a renewed list's does): play it again
            "access.granted": { target: ".choosing" },
            "access.renewed": { target: ".choosing", actions: { type: "keepRenewedStreams", params: ({ event }) => event.streams } },
            "access.endOldest": { actions: forwardTo("access") },
            "access.retry": { actions: forwardTo("access") },
            "media.firstFrame": { actions: forwardTo("playback") },
            "media.started": { actions: forwardTo("telemetry") },
            "media.reconnected": { actions: forwardTo("playback") },
            "media.timing": [
              {
                guard: { type: "changesKind", params: ({ event }) => event },
                actions: [
                  forwardTo("liveEdge"),
                  forwardTo("telemetry"),
                  { type: "keepKind", params: ({ event }) => event },
                  "describeSource"
                ]
              },
              { actions: [forwardTo("liveEdge"), forwardTo("telemetry")] }
            ],
            "media.autoMuted": { actions: [forwardTo("volume"), forwardTo("telemetry")] },
            "media.volumeChanged": { actions: forwardTo("telemetry") },
            // the server refused the player token: a fatal error like a media one
            "telemetry.tokenRejected": { actions: [forwardTo("playback"), forwardTo("controls")] },
            "player.retry": { actions: forwardTo("playback") },
            "player.seekBy": { actions: forwardTo("liveEdge") },
            "player.seekTo": { actions: forwardTo("liveEdge") },
            "player.goLive": { actions: forwardTo("liveEdge") },
            "player.seekToDate": { actions: forwardTo("liveEdge") },
            "player.catchUp": { actions: forwardTo("liveEdge") },
            "media.startMissed": { actions: forwardTo("startOver") },
            "volume.*": { actions: forwardTo("volume") },
            "controls.*": { actions: forwardTo("controls") },
            "screen.resized": { actions: [forwardTo("screen"), forwardTo("volume"), forwardTo("telemetry")] },
            "screen.pointer": { actions: forwardTo("controls") },
            // NO_FULLSCREEN (1) holds for every way in: the button, a double click, the f key
            "screen.toggleFullscreen": [{ guard: "allowsFullscreen", actions: forwardTo("screen") }, {}],
            "screen.*": { actions: forwardTo("screen") },
            "cast.*": { actions: forwardTo("casting") }
          },
          states: {
            choosing: {
              always: [
                { guard: "isUnderMaintenance", target: "maintenance" },
                { guard: "hasSource", target: "watching" },
                { target: "needsSubscription" }
              ]
            },
            watching: {
              entry: ["clearAccess", "forgetKind", "loadSource", "forgetStart", "reportSource", "castSource", "tellWatching"],
              // the TV player's seek bar marks the programmes of the window
              invoke: {
                id: "guideWindow",
                src: "guideWindow",
                input: ({ context }) => ({ streamId: context.player === TV_PLAYER ? (currentStream(context)?.id ?? null) : null })
              },
              on: { "player.togglePlay": { actions: forwardTo("playback") } }
            },
            refused: {
              tags: ["stopped"],
              entry: ["stopPlayback", "forgetTiming", "checkAccess"]
            },
            unavailable: {
              tags: ["channelUnavailable"],
              entry: ["stopPlayback", "forgetTiming"],
              after: { [CHANNEL_RETRY_MS]: "choosing" }
            },
            maintenance: { entry: ["stopPlayback", "forgetTiming"] },
            needsSubscription: { entry: ["stopPlayback", "forgetTiming"] }
          }
        }
      }
    }
  }
})

export type PlayerSnapshot = SnapshotFrom<typeof playerMachine>
