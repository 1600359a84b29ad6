import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, dataOf } from "../../domain/contract/answer.ts"
import { LOW_LATENCY_PLAYER, TV_PLAYER } from "../../domain/playerChoice.ts"
import { SubscriptionResult } from "../../domain/ResultCode.ts"
import { chooseStream, type Stream } from "../../domain/Stream.ts"
import { failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"

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

/** The paid run the server says covers now; null when it says there is none, or did not say. */
const runOf = (answer: Answer<"activeSubscription">) =>
  answer._tag === "ok" && answer.body.resultCode === SubscriptionResult.SUCCESS ? answer.body.data : null

const gotStatus = (answer: Answer<"activeSubscription">): boolean =>
  answer._tag === "ok" &&
  (answer.body.resultCode === SubscriptionResult.SUCCESS || answer.body.resultCode === SubscriptionResult.SUBSCRIPTION_DOES_NOT_EXIST)

const streamsOf = (answer: Answer<"streams">): ReadonlyArray<Stream> | undefined => dataOf(answer)

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
    loadSubscription: fromPromise<Answer<"activeSubscription">>(notProvided("loadSubscription")),
    reloadStreams: fromPromise<Answer<"streams">>(notProvided("reloadStreams"))
  },
  guards: {
    isActive: (_, answer: Answer<"activeSubscription">) => runOf(answer) !== null,
    gotStatus: (_, answer: Answer<"activeSubscription">) => gotStatus(answer),
    gotStreams: (_, answer: Answer<"streams">) => streamsOf(answer) !== undefined
  },
  actions: {
    keepSubscription: assign((_, answer: Answer<"activeSubscription">) => {
      const run = runOf(answer)
      return { startedAt: run?.startedAt ?? null, expiresAt: run?.expiresAt ?? null, error: null }
    }),
    keepFailure: assign((_, answer: Answer<"activeSubscription">) => ({ error: `${SUBSCRIPTION_FAILED_MESSAGE} ${failureHint(answer)}` })),
    keepStreams: assign((_, answer: Answer<"streams">) => {
      const streams = streamsOf(answer) ?? []
      return { streams: { total: streams.length, watchable: streams.filter(isWatchable).length }, reloadError: null }
    }),
    keepReloadFailure: assign((_, answer: Answer<"streams">) => ({ reloadError: `${RELOAD_FAILED_MESSAGE} ${failureHint(answer)}` }))
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
              { guard: { type: "isActive", params: answerOf }, target: "active", actions: { type: "keepSubscription", params: answerOf } },
              { guard: { type: "gotStatus", params: answerOf }, target: "none", actions: { type: "keepSubscription", params: answerOf } },
              { target: "failed", actions: { type: "keepFailure", params: answerOf } }
            ]
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
                guard: { type: "gotStreams", params: answerOf },
                target: "settled.reloaded",
                actions: { type: "keepStreams", params: answerOf }
              },
              { target: "settled.failed", actions: { type: "keepReloadFailure", params: answerOf } }
            ]
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
