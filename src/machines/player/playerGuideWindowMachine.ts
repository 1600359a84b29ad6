import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, dataOf } from "../../domain/contract/answer.ts"
import type { EpgEntry } from "../../domain/Schedule.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"

/** The window moves on with the clock: its programmes are asked for again this often. */
export const GUIDE_WINDOW_REFRESH_MS = 5 * 60_000
/** A load slower than this is given up and retried like a failed one. */
export const GUIDE_WINDOW_TIMEOUT_MS = 10_000
/** After a failure: this long, doubling with each failure in a row, up to the refresh interval. */
export const GUIDE_WINDOW_RETRY_MS = 30_000

export interface GuideWindowInput {
  /** the stream whose window the seek bar shows; null where no seek bar marks programmes (the low-latency player) */
  readonly streamId: number | null
}

interface GuideWindowContext {
  readonly streamId: number | null
  readonly programmes: ReadonlyArray<EpgEntry>
  readonly failures: number
}

/**
 * The programmes inside a stream's time-shift window, for the TV player's seek bar to mark: extra
 * information, so it never holds playback up. Loaded with the stream, again every few minutes as
 * the window moves on, and retried after a failure with a growing pause; a failed reload keeps
 * what was known.
 */
export const playerGuideWindowMachine = setup({
  types: { context: {} as GuideWindowContext, input: {} as GuideWindowInput },
  actors: {
    loadWindow: fromPromise<Answer<"guideWindow">, { readonly streamId: number }>(notProvided("loadWindow"))
  },
  guards: {
    hasNoStream: ({ context }) => context.streamId === null,
    gotWindow: (_, answer: Answer<"guideWindow">) => dataOf(answer) !== undefined
  },
  actions: {
    keepProgrammes: assign((_, answer: Answer<"guideWindow">) => ({ programmes: dataOf(answer)?.programmes ?? [], failures: 0 })),
    countFailure: assign(({ context }) => ({ failures: context.failures + 1 }))
  },
  delays: {
    refresh: GUIDE_WINDOW_REFRESH_MS,
    loadTimeout: GUIDE_WINDOW_TIMEOUT_MS,
    retry: ({ context }) => Math.min(GUIDE_WINDOW_REFRESH_MS, GUIDE_WINDOW_RETRY_MS * 2 ** Math.max(0, context.failures - 1))
  }
}).createMachine({
  id: "guideWindow",
  context: ({ input }) => ({ streamId: input.streamId, programmes: [], failures: 0 }),
  initial: "starting",
  states: {
    starting: { always: [{ guard: "hasNoStream", target: "off" }, { target: "loading" }] },
    off: {},
    loading: {
      invoke: {
        src: "loadWindow",
        input: ({ context }) => ({ streamId: context.streamId ?? 0 }),
        onDone: [
          { guard: { type: "gotWindow", params: answerOf }, target: "showing", actions: { type: "keepProgrammes", params: answerOf } },
          { target: "waiting", actions: "countFailure" }
        ]
      },
      // leaving the state cancels the call: a hung request never stops the retries
      after: { loadTimeout: { target: "waiting", actions: "countFailure" } }
    },
    showing: { after: { refresh: "loading" } },
    waiting: { after: { retry: "loading" } }
  }
})

export type GuideWindowSnapshot = SnapshotFrom<typeof playerGuideWindowMachine>

/** The window's programmes by start; none until they are known. */
export const selectWindowProgrammes = (snapshot: GuideWindowSnapshot | undefined): ReadonlyArray<EpgEntry> =>
  snapshot?.context.programmes ?? NONE
const NONE: ReadonlyArray<EpgEntry> = []
