import { assign, fromPromise, type SnapshotFrom, sendParent, setup } from "xstate"
import { type PlayingElsewhere, STREAM_LIMIT_TITLE, STREAM_STOPPED, type StreamAccess } from "../../domain/Connection.ts"
import { type Answer, type AnyAnswer, dataOf } from "../../domain/contract/answer.ts"
import type { Stream } from "../../domain/Stream.ts"
import { grantOf } from "../../domain/streamGrant.ts"
import { CONNECTION_HINT, failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf, fromAnswer } from "../shared/params.ts"

export const ACCESS_FAILED_MESSAGE = "This stream could not be opened."

/** Why the stream stopped, as the viewer is told. */
export type AccessStop = "staff" | "replaced" | "signedOut"

export type AccessEvent =
  /** our origin refused the source's playlist; the source carries its grant */
  | { readonly type: "access.check"; readonly source: string }
  | { readonly type: "access.endOldest" }
  | { readonly type: "access.retry" }
  /** another source is on its way: whatever was wrong with the last one is past */
  | { readonly type: "access.clear" }

/** What the player page hears back: play the source again, or play the renewed list's. */
export type AccessOutcome =
  | { readonly type: "access.granted" }
  | { readonly type: "access.renewed"; readonly streams: ReadonlyArray<Stream> }

interface AccessContext {
  readonly grant: string
  readonly maxStreams: number
  readonly playing: ReadonlyArray<PlayingElsewhere>
  readonly stop: AccessStop | null
  readonly error: string | null
}

const statusOf = (answer: Answer<"streamAccess">): StreamAccess["access"] | "failed" =>
  answer._tag === "ok" ? answer.body.access : "failed"
const renewedStreamsOf = (answer: Answer<"streams">): ReadonlyArray<Stream> => dataOf(answer) ?? []
/** Why the call failed; a grant the server answered for but calls invalid is offered a retry like a check that was not heard. */
const checkFailure = (answer: Answer<"streamAccess">) => ({ hint: answer._tag === "ok" ? CONNECTION_HINT : failureHint(answer) })
const renewFailure = (answer: AnyAnswer) => ({ hint: failureHint(answer) })

/**
 * A source our origin refused: asks the server why, then tells the viewer in plain words. Over the
 * account's stream limit it lists where the others play and offers to end the oldest; a connection
 * staff (or a newer stream) ended says so; a grant too old to open is renewed without a word.
 */
export const playerAccessMachine = setup({
  types: { context: {} as AccessContext, events: {} as AccessEvent },
  actors: {
    checkAccess: fromPromise<Answer<"streamAccess">, { readonly grant: string }>(notProvided("checkAccess")),
    endStream: fromPromise<Answer<"endStream">, { readonly id: number }>(notProvided("endStream")),
    renewStreams: fromPromise<Answer<"streams">>(notProvided("renewStreams"))
  },
  guards: {
    is: (_, params: { readonly answer: Answer<"streamAccess">; readonly status: StreamAccess["access"] | "failed" }) =>
      statusOf(params.answer) === params.status,
    renewed: (_, answer: Answer<"streams">) => renewedStreamsOf(answer).length > 0
  },
  actions: {
    keepGrant: assign((_, params: { readonly source: string }) => ({ grant: grantOf(params.source) ?? "", error: null, stop: null })),
    keepAnswer: assign((_, answer: Answer<"streamAccess">) =>
      answer._tag === "ok" ? { maxStreams: answer.body.maxStreams, playing: answer.body.playing, stop: answer.body.reason ?? null } : {}
    ),
    keepFailure: assign((_, params: { readonly hint: string }) => ({ error: `${ACCESS_FAILED_MESSAGE} ${params.hint}` })),
    granted: sendParent((): AccessOutcome => ({ type: "access.granted" })),
    renewed: sendParent((_, answer: Answer<"streams">): AccessOutcome => ({ type: "access.renewed", streams: renewedStreamsOf(answer) }))
  }
}).createMachine({
  id: "access",
  context: { grant: "", maxStreams: 0, playing: [], stop: null, error: null },
  initial: "clear",
  on: {
    "access.check": { target: ".checking", actions: { type: "keepGrant", params: ({ event }) => event } },
    "access.clear": ".clear"
  },
  states: {
    clear: {},
    checking: {
      tags: ["accessChecking"],
      invoke: {
        src: "checkAccess",
        input: ({ context }) => ({ grant: context.grant }),
        onDone: [
          { guard: { type: "is", params: ({ event }) => ({ answer: event.output, status: "ok" }) }, target: "clear", actions: "granted" },
          { guard: { type: "is", params: ({ event }) => ({ answer: event.output, status: "expired" }) }, target: "renewing" },
          {
            guard: { type: "is", params: ({ event }) => ({ answer: event.output, status: "limit" }) },
            target: "limited",
            actions: { type: "keepAnswer", params: answerOf }
          },
          {
            guard: { type: "is", params: ({ event }) => ({ answer: event.output, status: "ended" }) },
            target: "ended",
            actions: { type: "keepAnswer", params: answerOf }
          },
          { target: "failed", actions: { type: "keepFailure", params: fromAnswer(checkFailure) } }
        ]
      }
    },
    renewing: {
      tags: ["accessChecking"],
      invoke: {
        src: "renewStreams",
        onDone: [
          { guard: { type: "renewed", params: answerOf }, target: "clear", actions: { type: "renewed", params: answerOf } },
          { target: "failed", actions: { type: "keepFailure", params: fromAnswer(renewFailure) } }
        ]
      }
    },
    limited: {
      tags: ["accessLimited"],
      on: { "access.endOldest": "ending" }
    },
    ending: {
      tags: ["accessLimited", "accessChecking"],
      invoke: {
        src: "endStream",
        input: ({ context }) => ({ id: context.playing[0]?.id ?? 0 }),
        // ended, already gone, or not heard: either way asking again says whether there is room now
        onDone: { target: "checking" }
      }
    },
    ended: {
      tags: ["accessEnded"],
      on: { "access.retry": "renewing" }
    },
    failed: {
      tags: ["accessFailed"],
      on: { "access.retry": "checking" }
    }
  }
})

export type AccessSnapshot = SnapshotFrom<typeof playerAccessMachine>

/** What the player shows over the picture while a refused stream is sorted out; null when nothing is wrong. */
export type AccessView =
  | { readonly kind: "checking" }
  | { readonly kind: "limit"; readonly maxStreams: number; readonly playing: ReadonlyArray<PlayingElsewhere>; readonly ending: boolean }
  | { readonly kind: "ended"; readonly stop: AccessStop | null }
  | { readonly kind: "failed"; readonly message: string }

export const selectAccess = (snapshot: AccessSnapshot | undefined): AccessView | null => {
  if (snapshot === undefined) return null
  if (snapshot.hasTag("accessLimited")) {
    return {
      kind: "limit",
      maxStreams: snapshot.context.maxStreams,
      playing: snapshot.context.playing,
      ending: snapshot.hasTag("accessChecking")
    }
  }
  if (snapshot.hasTag("accessChecking")) return { kind: "checking" }
  if (snapshot.hasTag("accessEnded")) return { kind: "ended", stop: snapshot.context.stop }
  if (snapshot.hasTag("accessFailed")) return { kind: "failed", message: snapshot.context.error ?? ACCESS_FAILED_MESSAGE }
  return null
}

/** Why the stream stopped, in the words the page already uses for it; null while nothing says so. */
export const selectStopTitle = (snapshot: AccessSnapshot | undefined): string | null => {
  const view = selectAccess(snapshot)
  return view?.kind === "limit" ? STREAM_LIMIT_TITLE : view?.kind === "ended" ? STREAM_STOPPED[view.stop ?? "replaced"].title : null
}
