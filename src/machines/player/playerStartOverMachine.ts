import { assign, fromPromise, type SnapshotFrom, sendParent, setup } from "xstate"
import { type EpgEntry, isAiring, type NowNext } from "../../domain/Schedule.ts"
import type { StartOverChoice, StartOverKey } from "../../domain/StartOver.ts"
import { offersStartOver } from "../../domain/Timeshift.ts"
import { notProvided } from "../shared/notProvided.ts"

/** Over the picture when a link's moment (`?from=`) is not in the channel's window. */
export const START_MISSED_MESSAGE = "That moment is outside the channel's time-shift window, so it plays live."
/** How long that notice stays. */
export const START_NOTICE_MS = 6000

export type StartOverEvent =
  /** the page plays this stream now (from the parent, each time a source loads) */
  | { readonly type: "startOver.watching"; readonly streamId: number }
  /** what the guide says airs, read at `now` (from the parent, as the now/next child learns it) */
  | { readonly type: "startOver.guide"; readonly guide: ReadonlyArray<NowNext>; readonly now: number }
  | { readonly type: "startOver.begin" }
  | { readonly type: "startOver.watchLive" }
  | { readonly type: "media.startMissed" }

/** What the parent is told: play from this moment (epoch ms), the programme's start. */
export type StartOverAccepted = { readonly type: "startOver.accepted"; readonly at: number; readonly streamId: number }

export interface StartOverInput {
  readonly timeshiftHours: number
  /** the page was opened at a moment of its own (`?from=`): its first stream is not asked about */
  readonly startAt: boolean
}

interface StartOverContext {
  readonly timeshiftHours: number
  readonly streamId: number | null
  /** null until the guide has answered once */
  readonly guide: ReadonlyArray<NowNext> | null
  readonly now: number
  /** the programme being asked about */
  readonly programme: EpgEntry | null
  readonly skipFirst: boolean
}

const airingOn = (context: StartOverContext): EpgEntry | null => {
  const entry = context.guide?.find((candidate) => candidate.streamId === context.streamId)
  return [entry?.now ?? null, entry?.next ?? null].find((programme) => programme !== null && isAiring(programme, context.now)) ?? null
}

export const keyOf = (context: Pick<StartOverContext, "streamId" | "programme">): StartOverKey => ({
  streamId: context.streamId ?? 0,
  start: context.programme?.StartTime ?? ""
})

/**
 * Arriving late: opening a stream whose programme began more than a few minutes ago (and inside
 * the time-shift window) asks once whether to start it from the beginning or watch live; the
 * answer is kept for that programme, which is not asked about again. The guide decides, as soon
 * as it has answered; a stream without one plays live unasked. The live picture never waits for
 * the question (nor for the guide): answering "from the beginning" takes it back to the start. A
 * page opened at a moment of its own (`?from=`) is not asked, and is told when that moment was
 * outside the window and it plays live instead.
 */
export const playerStartOverMachine = setup({
  types: {
    context: {} as StartOverContext,
    events: {} as StartOverEvent,
    input: {} as StartOverInput
  },
  actors: {
    recall: fromPromise<StartOverChoice | null, StartOverKey>(notProvided("recall"))
  },
  guards: {
    isSameStream: ({ context }, params: { readonly streamId: number }) => context.streamId === params.streamId,
    skipsFirst: ({ context }) => context.skipFirst,
    offers: ({ context }) => {
      const programme = airingOn(context)
      return programme !== null && offersStartOver(programme, context.now, context.timeshiftHours)
    },
    knowsGuide: ({ context }) => context.guide !== null,
    wasAnswered: (_, choice: StartOverChoice | null) => choice !== null
  },
  actions: {
    keepStream: assign((_, params: { readonly streamId: number }) => ({ streamId: params.streamId, programme: null })),
    stopSkipping: assign({ skipFirst: false }),
    keepGuide: assign((_, params: { readonly guide: ReadonlyArray<NowNext>; readonly now: number }) => ({
      guide: params.guide,
      now: params.now
    })),
    keepProgramme: assign(({ context }) => ({ programme: airingOn(context) })),
    remember: (_, _params: { readonly key: StartOverKey; readonly choice: StartOverChoice }) => {},
    accept: sendParent(
      ({ context }): StartOverAccepted => ({
        type: "startOver.accepted",
        at: Date.parse(context.programme?.StartTime ?? ""),
        streamId: context.streamId ?? 0
      })
    )
  },
  delays: { notice: START_NOTICE_MS }
}).createMachine({
  id: "startOver",
  type: "parallel",
  context: ({ input }) => ({
    timeshiftHours: input.timeshiftHours,
    streamId: null,
    guide: null,
    now: 0,
    programme: null,
    skipFirst: input.startAt
  }),
  states: {
    prompt: {
      initial: "idle",
      on: {
        "startOver.guide": { actions: { type: "keepGuide", params: ({ event }) => event } },
        "startOver.watching": [
          // the same stream loading again (a retry, access granted again) is not a new arrival
          { guard: { type: "isSameStream", params: ({ event }) => event } },
          {
            guard: "skipsFirst",
            target: ".settled",
            actions: [{ type: "keepStream", params: ({ event }) => event }, "stopSkipping"]
          },
          { target: ".deciding", actions: { type: "keepStream", params: ({ event }) => event } }
        ]
      },
      states: {
        idle: {},
        deciding: {
          always: [
            { guard: "offers", target: "recalling", actions: "keepProgramme" },
            { guard: "knowsGuide", target: "settled" }
          ],
          on: {
            "startOver.guide": { target: "deciding", reenter: true, actions: { type: "keepGuide", params: ({ event }) => event } }
          }
        },
        recalling: {
          invoke: {
            src: "recall",
            input: ({ context }) => keyOf(context),
            onDone: [{ guard: { type: "wasAnswered", params: ({ event }) => event.output }, target: "settled" }, { target: "asking" }],
            // storage that cannot be read asks again rather than never
            onError: "asking"
          }
        },
        asking: {
          tags: ["asking"],
          on: {
            "startOver.begin": {
              target: "settled",
              actions: [{ type: "remember", params: ({ context }) => ({ key: keyOf(context), choice: "beginning" }) }, "accept"]
            },
            "startOver.watchLive": {
              target: "settled",
              actions: { type: "remember", params: ({ context }) => ({ key: keyOf(context), choice: "live" }) }
            }
          }
        },
        settled: {}
      }
    },
    notice: {
      initial: "hidden",
      states: {
        hidden: { on: { "media.startMissed": "shown" } },
        shown: {
          tags: ["startMissed"],
          after: { notice: "hidden" },
          on: { "media.startMissed": { target: "shown", reenter: true } }
        }
      }
    }
  }
})

export type StartOverSnapshot = SnapshotFrom<typeof playerStartOverMachine>

/** The programme the question is about, while it is open. */
export const selectStartOverProgramme = (snapshot: StartOverSnapshot | undefined): EpgEntry | null =>
  snapshot?.hasTag("asking") === true ? snapshot.context.programme : null
/** When the guide was last read (epoch ms): how long ago the programme began is told from it. */
export const selectGuideTime = (snapshot: StartOverSnapshot | undefined): number => snapshot?.context.now ?? 0
/** The notice that a link's moment could not be played. */
export const selectStartMissed = (snapshot: StartOverSnapshot | undefined): string | null =>
  snapshot?.hasTag("startMissed") === true ? START_MISSED_MESSAGE : null

/** The page's start-over child, invoked with the list beside now/next: it learns the guide and the streams played from the page. */
export const startOverOfPage = {
  id: "startOver",
  src: "startOver",
  input: ({ context }: { readonly context: { readonly timeshiftHours: number; readonly startAt: number | null } }): StartOverInput => ({
    timeshiftHours: context.timeshiftHours,
    startAt: context.startAt !== null
  })
} as const
