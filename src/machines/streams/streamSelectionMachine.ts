import { assign, forwardTo, fromPromise, not, or, type SnapshotFrom, sendTo, setup, stateIn } from "xstate"
import { type Answer, dataOf } from "../../domain/contract/answer.ts"
import { DEFAULT_PLAYER_CHOICE, LOW_LATENCY_PLAYER, TV_PLAYER } from "../../domain/playerChoice.ts"
import { chooseStream, type PlayerChoice, type Stream, type StreamChoice } from "../../domain/Stream.ts"
import { failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import { nowNextMachine, nowNextOfStreams } from "./nowNextMachine.ts"
import { type StreamRequestEvent, streamRequestMachine } from "./streamRequestMachine.ts"

export const STREAMS_FAILED_MESSAGE = "The streams could not be loaded."

export type StreamSelectionEvent =
  | { readonly type: "stream.choose"; readonly index: number }
  | { readonly type: "streams.retry" }
  | { readonly type: "player.toggle" }
  | { readonly type: "modal.close" }
  | { readonly type: "plans.view" }
  | { readonly type: "request.open" }
  /** Passed on to the request modal's own machine. */
  | StreamRequestEvent

interface StreamSelectionContext {
  readonly streams: ReadonlyArray<Stream>
  readonly player: PlayerChoice
  readonly error: string | null
}

const choiceFor = (context: StreamSelectionContext, index: number): StreamChoice | undefined => {
  const stream = context.streams[index]
  return stream === undefined ? undefined : chooseStream(stream, index, context.player)
}

export const streamSelectionMachine = setup({
  types: {
    context: {} as StreamSelectionContext,
    events: {} as StreamSelectionEvent,
    children: {} as { request: "streamRequest"; nowNext: "nowNext" }
  },
  actors: {
    readPlayerChoice: fromPromise<PlayerChoice>(notProvided("readPlayerChoice")),
    loadStreams: fromPromise<Answer<"streams">>(notProvided("loadStreams")),
    streamRequest: streamRequestMachine,
    nowNext: nowNextMachine
  },
  guards: {
    gotStreams: (_, answer: Answer<"streams">) => answer._tag === "ok" && answer.body.success,
    leadsTo: ({ context }, params: { readonly index: number; readonly kind: StreamChoice["kind"] }) =>
      choiceFor(context, params.index)?.kind === params.kind,
    requestShown: stateIn({ request: "open" }),
    noticeShown: or([stateIn({ grid: { ready: "maintenanceNotice" } }), stateIn({ grid: { ready: "purchaseNotice" } })])
  },
  actions: {
    navigate: (_, _params: { readonly to: string }) => {},
    persistPlayerChoice: (_, _params: { readonly choice: PlayerChoice }) => {},
    keepPlayerChoice: assign((_, choice: PlayerChoice) => ({ player: choice })),
    keepStreams: assign((_, answer: Answer<"streams">) => ({
      streams: dataOf(answer) ?? [],
      error: null
    })),
    keepLoadFailure: assign((_, answer: Answer<"streams">) => ({ error: `${STREAMS_FAILED_MESSAGE} ${failureHint(answer)}` })),
    togglePlayer: assign(({ context }) => ({ player: context.player === TV_PLAYER ? LOW_LATENCY_PLAYER : TV_PLAYER }))
  }
}).createMachine({
  id: "streamSelection",
  context: { streams: [], player: DEFAULT_PLAYER_CHOICE, error: null },
  // Asking for a stream needs no grid: the request may open while the streams load, or after they failed.
  type: "parallel",
  states: {
    grid: {
      initial: "preparing",
      // the button is on screen while the streams load and after they failed, too
      on: {
        "player.toggle": {
          actions: ["togglePlayer", { type: "persistPlayerChoice", params: ({ context }) => ({ choice: context.player }) }]
        }
      },
      states: {
        preparing: {
          tags: ["loading"],
          // the stored choice is a moment away, and would undo a switch made before it
          on: { "player.toggle": {} },
          invoke: {
            src: "readPlayerChoice",
            onDone: { target: "loading", actions: { type: "keepPlayerChoice", params: ({ event }) => event.output } },
            // the stored choice could not be read: the default one stands
            onError: { target: "loading" }
          }
        },
        loading: {
          tags: ["loading"],
          invoke: {
            src: "loadStreams",
            onDone: [
              { guard: { type: "gotStreams", params: answerOf }, target: "ready", actions: { type: "keepStreams", params: answerOf } },
              { target: "failed", actions: { type: "keepLoadFailure", params: answerOf } }
            ]
          }
        },
        failed: {
          on: { "streams.retry": { target: "loading" } }
        },
        ready: {
          // only once the grid is on screen: what airs is extra, and waits for the streams it is about
          invoke: nowNextOfStreams,
          initial: "browsing",
          states: {
            browsing: {
              on: {
                "stream.choose": [
                  // one dialog at a time: behind the request's, the grid is not there to choose from
                  { guard: "requestShown" },
                  {
                    guard: { type: "leadsTo", params: ({ event }) => ({ index: event.index, kind: "maintenance" }) },
                    target: "maintenanceNotice"
                  },
                  {
                    guard: { type: "leadsTo", params: ({ event }) => ({ index: event.index, kind: "purchase" }) },
                    target: "purchaseNotice"
                  },
                  {
                    guard: { type: "leadsTo", params: ({ event }) => ({ index: event.index, kind: "play" }) },
                    actions: {
                      type: "navigate",
                      params: ({ context, event }) => {
                        const choice = choiceFor(context, event.index)
                        return { to: choice?.kind === "play" ? choice.path : "/" }
                      }
                    }
                  }
                ]
              }
            },
            maintenanceNotice: {
              on: { "modal.close": { target: "browsing" } }
            },
            purchaseNotice: {
              on: {
                "modal.close": { target: "browsing" },
                "plans.view": { target: "browsing", actions: { type: "navigate", params: { to: "/subscription" } } }
              }
            }
          }
        }
      }
    },
    request: {
      initial: "closed",
      states: {
        closed: {
          on: {
            "request.open": {
              guard: not("noticeShown"),
              target: "open"
            }
          }
        },
        open: {
          invoke: { id: "request", src: "streamRequest", onDone: { target: "closed" } },
          on: {
            "request.change": { actions: forwardTo("request") },
            "request.submit": { actions: forwardTo("request") },
            "request.cancel": { actions: forwardTo("request") },
            "modal.close": { actions: sendTo("request", { type: "request.cancel" }) }
          }
        }
      }
    }
  }
})

export type StreamSelectionSnapshot = SnapshotFrom<typeof streamSelectionMachine>
export type StreamModal = "none" | "maintenance" | "purchase" | "request"

export const selectStreams = (snapshot: StreamSelectionSnapshot): ReadonlyArray<Stream> => snapshot.context.streams
export const selectPlayerChoice = (snapshot: StreamSelectionSnapshot): PlayerChoice => snapshot.context.player
export const selectIsLoading = (snapshot: StreamSelectionSnapshot): boolean => snapshot.hasTag("loading")
export const selectLoadError = (snapshot: StreamSelectionSnapshot): string | null =>
  snapshot.matches({ grid: "failed" }) ? snapshot.context.error : null
/** What airs now and next on the grid's streams, once they are shown. */
export const selectNowNext = (snapshot: StreamSelectionSnapshot) => snapshot.children.nowNext
/** The request modal's machine while it is open; its text and progress are read from it. */
export const selectStreamRequest = (snapshot: StreamSelectionSnapshot) => snapshot.children.request
export const selectModal = (snapshot: StreamSelectionSnapshot): StreamModal =>
  snapshot.matches({ request: "open" })
    ? "request"
    : snapshot.matches({ grid: { ready: "maintenanceNotice" } })
      ? "maintenance"
      : snapshot.matches({ grid: { ready: "purchaseNotice" } })
        ? "purchase"
        : "none"
