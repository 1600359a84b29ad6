import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { CallResult } from "../../domain/api.ts"
import { LOW_LATENCY_PLAYER, TV_PLAYER } from "../../domain/playerChoice.ts"
import { SubscriptionResult } from "../../domain/ResultCode.ts"
import { chooseStream, type Stream } from "../../domain/Stream.ts"
import { failureHint, isFailure } from "../shared/apiResult.ts"
import { notProvided } from "../shared/notProvided.ts"

export const SUBSCRIPTION_FAILED_MESSAGE = "Your subscription could not be checked."
export const RELOAD_FAILED_MESSAGE = "The streams could not be reloaded."

export type SubscriptionEvent =
  | { readonly type: "subscription.retry" }
  /** Loads the streams again, and the subscription with them: a payment may have changed what plays. */
  | { readonly type: "streams.reload" }

export interface SubscriptionContext {
  /** the end of the paid run covering now; null when there is none */
  readonly expiresAt: string | null
  readonly startedAt: string | null
  readonly streams: { readonly total: number; readonly watchable: number } | null
  readonly error: string | null
  readonly reloadError: string | null
}

type SubscriptionAnswer = CallResult<"activeSubscription"> | undefined
type StreamsAnswer = CallResult<"streams"> | undefined

const gotStatus = (answer: SubscriptionAnswer): boolean =>
  !isFailure(answer) &&
  (answer.resultCode === SubscriptionResult.SUCCESS || answer.resultCode === SubscriptionResult.SUBSCRIPTION_DOES_NOT_EXIST)

/** Plays in one of the players: not under maintenance, and with a source this account may play. */
const isWatchable = (stream: Stream, index: number): boolean =>
  [TV_PLAYER, LOW_LATENCY_PLAYER].some((player) => chooseStream(stream, index, player).kind === "play")

/** /subscription: the notice that the site is free, the viewer's paid months, and reloading the streams. */
export const subscriptionMachine = setup({
  types: {
    context: {} as SubscriptionContext,
    events: {} as SubscriptionEvent
  },
  actors: {
    loadSubscription: fromPromise<SubscriptionAnswer>(notProvided("loadSubscription")),
    reloadStreams: fromPromise<StreamsAnswer>(notProvided("reloadStreams"))
  },
  guards: {
    isActive: (_, answer: SubscriptionAnswer) =>
      !isFailure(answer) && answer.resultCode === SubscriptionResult.SUCCESS && answer.data !== null,
    gotStatus: (_, answer: SubscriptionAnswer) => gotStatus(answer),
    gotStreams: (_, answer: StreamsAnswer) => !isFailure(answer) && answer.success
  },
  actions: {
    keepSubscription: assign((_, answer: SubscriptionAnswer) => {
      const data = !isFailure(answer) && answer.resultCode === SubscriptionResult.SUCCESS ? answer.data : null
      return { startedAt: data?.startedAt ?? null, expiresAt: data?.expiresAt ?? null, error: null }
    }),
    keepFailure: assign((_, answer: SubscriptionAnswer) => ({ error: `${SUBSCRIPTION_FAILED_MESSAGE} ${failureHint(answer)}` })),
    keepStreams: assign((_, answer: StreamsAnswer) => {
      const streams = !isFailure(answer) && answer.success ? answer.data : []
      return { streams: { total: streams.length, watchable: streams.filter(isWatchable).length }, reloadError: null }
    }),
    keepReloadFailure: assign((_, answer: StreamsAnswer) => ({ reloadError: `${RELOAD_FAILED_MESSAGE} ${failureHint(answer)}` }))
  }
}).createMachine({
  id: "subscription",
  context: { expiresAt: null, startedAt: null, streams: null, error: null, reloadError: null },
  type: "parallel",
  states: {
    status: {
      initial: "loading",
      states: {
        loading: {
          tags: ["loading"],
          invoke: {
            src: "loadSubscription",
            onDone: [
              {
                guard: { type: "isActive", params: ({ event }) => event.output },
                target: "active",
                actions: { type: "keepSubscription", params: ({ event }) => event.output }
              },
              {
                guard: { type: "gotStatus", params: ({ event }) => event.output },
                target: "none",
                actions: { type: "keepSubscription", params: ({ event }) => event.output }
              },
              { target: "failed", actions: { type: "keepFailure", params: ({ event }) => event.output } }
            ],
            onError: { target: "failed", actions: { type: "keepFailure", params: () => undefined } }
          }
        },
        active: {},
        none: {},
        failed: {
          tags: ["failed"],
          on: { "subscription.retry": { target: "loading" } }
        }
      }
    },
    streams: {
      initial: "settled",
      states: {
        settled: {
          initial: "idle",
          on: { "streams.reload": { target: ["#subscription.status.loading", "#subscription.streams.reloading"] } },
          states: { idle: {}, reloaded: {}, failed: {} }
        },
        reloading: {
          tags: ["reloading"],
          invoke: {
            src: "reloadStreams",
            onDone: [
              {
                guard: { type: "gotStreams", params: ({ event }) => event.output },
                target: "settled.reloaded",
                actions: { type: "keepStreams", params: ({ event }) => event.output }
              },
              { target: "settled.failed", actions: { type: "keepReloadFailure", params: ({ event }) => event.output } }
            ],
            onError: { target: "settled.failed", actions: { type: "keepReloadFailure", params: () => undefined } }
          }
        }
      }
    }
  }
})

export type SubscriptionSnapshot = SnapshotFrom<typeof subscriptionMachine>
export type SubscriptionStatus = "loading" | "active" | "none" | "failed"

export const selectStatus = (snapshot: SubscriptionSnapshot): SubscriptionStatus =>
  snapshot.matches({ status: "active" })
    ? "active"
    : snapshot.matches({ status: "none" })
      ? "none"
      : snapshot.hasTag("failed")
        ? "failed"
        : "loading"
export const selectSubscription = (snapshot: SubscriptionSnapshot) => ({
  startedAt: snapshot.context.startedAt,
  expiresAt: snapshot.context.expiresAt
})
export const selectError = (snapshot: SubscriptionSnapshot): string | null => snapshot.context.error
export const selectIsReloading = (snapshot: SubscriptionSnapshot): boolean => snapshot.hasTag("reloading")
/** After a reload: how many streams there are, and how many play. */
export const selectReloaded = (snapshot: SubscriptionSnapshot) =>
  snapshot.matches({ streams: { settled: "reloaded" } }) ? snapshot.context.streams : null
export const selectReloadError = (snapshot: SubscriptionSnapshot): string | null =>
  snapshot.matches({ streams: { settled: "failed" } }) ? snapshot.context.reloadError : null
