import { type ActorRefFrom, assign, fromCallback, fromPromise, type SnapshotFrom, sendTo, setup } from "xstate"
import type { ClockCommand, ClockFact, ClockInput } from "../../domain/ClockProtocol.ts"
import { type Answer, dataOf } from "../../domain/contract/answer.ts"
import type { NowNext } from "../../domain/Schedule.ts"
import type { Stream } from "../../domain/Stream.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import { nextChangeAfter, type Programmes, programmesAt, refreshAtFor } from "./nowNextProgrammes.ts"

/** Progress bars move on this often. */
export const PROGRESS_TICK_MS = 30_000
/** A load slower than this is given up and retried like a failed one. */
export const LOAD_TIMEOUT_MS = 10_000
/** After a failure: this long, doubling with each failure in a row, up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 30_000
export const RETRY_MAX_MS = 10 * 60_000

export interface NowNextInput {
  /** the streams on screen: only their programmes are kept, and only theirs time the reload */
  readonly streamIds: ReadonlyArray<number>
}

interface NowNextContext {
  readonly streamIds: ReadonlyArray<number>
  readonly guide: ReadonlyArray<NowNext>
  /** the clock's last reading, epoch ms */
  readonly now: number
  readonly refreshAt: number | null
  readonly failures: number
}

/**
 * What airs now and next on the streams on screen: extra information, so it never holds anything
 * up. It loads once, again when a shown programme ends, and retries failures with a growing pause;
 * a failed reload keeps what was known, whose programmes drop out as they end.
 */
export const nowNextMachine = setup({
  types: {
    context: {} as NowNextContext,
    events: {} as ClockFact,
    input: {} as NowNextInput,
    children: {} as { clock: "clock" }
  },
  actors: {
    loadNowNext: fromPromise<Answer<"nowNext">>(notProvided("loadNowNext")),
    /** The clock adapter: ticks every `everyMs`, once at start, and once more at the instant it is woken for. */
    clock: fromCallback<ClockCommand, ClockInput>(notProvided("clock"))
  },
  guards: {
    gotGuide: (_, answer: Answer<"nowNext">) => answer._tag === "ok" && answer.body.success,
    isDue: ({ context }, params: { readonly now: number }) => context.refreshAt !== null && params.now >= context.refreshAt
  },
  actions: {
    keepTime: assign((_, params: { readonly now: number }) => ({ now: params.now })),
    keepGuide: assign(({ context }, answer: Answer<"nowNext">) => ({
      guide: dataOf(answer)?.filter((entry) => context.streamIds.includes(entry.streamId)) ?? [],
      failures: 0
    })),
    countFailure: assign(({ context }) => ({ failures: context.failures + 1 })),
    planRefresh: assign(({ context }) => ({ refreshAt: refreshAtFor(context.guide, context.now) })),
    // when a shown programme ends or the planned reload is due, whichever comes first; a reload
    // may be slow or failing meanwhile, and an ended programme must not stay on screen for it
    wakeForChange: sendTo(
      "clock",
      ({ context }): ClockCommand => ({
        type: "clock.wake",
        at: Math.min(
          nextChangeAfter(context.guide, context.now),
          context.refreshAt !== null && context.refreshAt > context.now ? context.refreshAt : Number.POSITIVE_INFINITY
        )
      })
    )
  },
  delays: {
    loadTimeout: LOAD_TIMEOUT_MS,
    retry: ({ context }) => Math.min(RETRY_MAX_MS, RETRY_FIRST_MS * 2 ** Math.max(0, context.failures - 1))
  }
}).createMachine({
  id: "nowNext",
  context: ({ input }) => ({ streamIds: input.streamIds, guide: [], now: 0, refreshAt: null, failures: 0 }),
  invoke: { id: "clock", src: "clock", input: { everyMs: PROGRESS_TICK_MS } },
  on: { "clock.ticked": { actions: [{ type: "keepTime", params: ({ event }) => event }, "wakeForChange"] } },
  initial: "loading",
  states: {
    loading: {
      entry: "wakeForChange",
      invoke: {
        src: "loadNowNext",
        onDone: [
          { guard: { type: "gotGuide", params: answerOf }, target: "showing", actions: { type: "keepGuide", params: answerOf } },
          { target: "waiting", actions: "countFailure" }
        ]
      },
      // leaving the state cancels the call: a hung request never stops the retries
      after: { loadTimeout: { target: "waiting", actions: "countFailure" } }
    },
    showing: {
      entry: ["planRefresh", "wakeForChange"],
      on: {
        "clock.ticked": [
          {
            guard: { type: "isDue", params: ({ event }) => event },
            target: "loading",
            actions: { type: "keepTime", params: ({ event }) => event }
          },
          { actions: [{ type: "keepTime", params: ({ event }) => event }, "wakeForChange"] }
        ]
      }
    },
    waiting: {
      after: { retry: { target: "loading" } }
    }
  }
})

/**
 * A page's now-and-next child, invoked once its list of streams is in (beside what the page shows,
 * never before it): what airs on those streams. Should it ever fail, the page carries on without it.
 */
export const nowNextOfStreams = {
  id: "nowNext",
  src: "nowNext",
  input: ({ context }: { readonly context: { readonly streams: ReadonlyArray<Stream> } }): NowNextInput => ({
    streamIds: context.streams.map((stream) => stream.id)
  }),
  onError: {}
} as const

export type NowNextActor = ActorRefFrom<typeof nowNextMachine>
export type NowNextSnapshot = SnapshotFrom<typeof nowNextMachine>

/** What a stream shows now and next; null for a stream without a guide, and until the first answer. */
export const selectProgrammes = (snapshot: NowNextSnapshot | undefined, streamId: number): Programmes | null => {
  const entry = snapshot?.context.guide.find((candidate) => candidate.streamId === streamId)
  return entry === undefined || snapshot === undefined ? null : programmesAt(entry, snapshot.context.now)
}
