import { assign, fromCallback, fromPromise, not, raise, setup } from "xstate"
import type { ClockCommand, ClockInput } from "../../domain/ClockProtocol.ts"
import { type Answer, dataOf, isSuccess } from "../../domain/contract/answer.ts"
import { DEFAULT_PLAYER_CHOICE } from "../../domain/playerChoice.ts"
import { type ScheduleItem, upcomingProgrammes } from "../../domain/Schedule.ts"
import { scheduleDays } from "../../domain/ScheduleDays.ts"
import type { PlayerChoice, Stream } from "../../domain/Stream.ts"
import { CONNECTION_HINT, failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf, fromAnswer } from "../shared/params.ts"

export const GUIDE_FAILED_MESSAGE = "The programme guide could not be loaded."
/** LIVE marks and finished programmes are brought up to date this often while the page is open. */
export const CLOCK_TICK_MS = 30_000

/** Who is looking, and when: the zone whose local days the guide shows, and the player Watch opens. */
export interface GuideViewer {
  readonly timeZone: string
  readonly now: number
  readonly player: PlayerChoice
  /** the site's time-shift window (hours): how far back "Watch from the start" reaches; none when absent */
  readonly timeshiftHours?: number
}

export interface ScheduleRequest {
  readonly day: string
  readonly timeZone: string
}

export type GuideEvent =
  | { readonly type: "day.choose"; readonly day: string }
  | { readonly type: "day.retry" }
  /** the streams behind the Watch links, after they could not be loaded */
  | { readonly type: "streams.retry" }
  | { readonly type: "search.change"; readonly query: string }
  | { readonly type: "search.retry" }
  | { readonly type: "clock.ticked"; readonly now: number }

export interface GuideContext {
  readonly timeZone: string
  readonly now: number
  readonly player: PlayerChoice
  readonly timeshiftHours: number
  /** Today and the next six days in the viewer's zone, as YYYY-MM-DD. */
  readonly days: ReadonlyArray<string>
  readonly day: string
  /** Every day loaded so far, by day: the chosen ones and those a search needed. */
  readonly schedules: Readonly<Record<string, ReadonlyArray<ScheduleItem>>>
  /** In stream order: a programme's Watch link names its stream by index. */
  readonly streams: ReadonlyArray<Stream>
  readonly query: string
  /** The day a search is loading. */
  readonly searchDay: string
  readonly error: string | null
}

type Loaded = { readonly day: string; readonly answer: Answer<"schedule"> }

const itemsOf = (answer: Answer<"schedule">): ReadonlyArray<ScheduleItem> => dataOf(answer)?.Items ?? []
const streamsOf = (answer: Answer<"streams">): ReadonlyArray<Stream> => dataOf(answer) ?? []
const missingDays = (context: GuideContext): ReadonlyArray<string> => context.days.filter((day) => !(day in context.schedules))
const isSearching = (query: string): boolean => query.trim() !== ""

export const guideMachine = setup({
  types: {
    context: {} as GuideContext,
    events: {} as GuideEvent
  },
  actors: {
    readViewer: fromPromise<GuideViewer>(notProvided("readViewer")),
    loadSchedule: fromPromise<Answer<"schedule">, ScheduleRequest>(notProvided("loadSchedule")),
    loadStreams: fromPromise<Answer<"streams">>(notProvided("loadStreams")),
    clock: fromCallback<ClockCommand, ClockInput>(notProvided("clock"))
  },
  guards: {
    gotData: (_, answer: Answer<"schedule"> | Answer<"streams">) => isSuccess(answer),
    isLoaded: ({ context }, day: string) => day in context.schedules,
    isGuideDay: ({ context }, day: string) => context.days.includes(day),
    dayHasProgrammes: ({ context }) =>
      (context.schedules[context.day] ?? []).some((item) => upcomingProgrammes(item.EpgList, context.now).length > 0),
    dayLeftBehind: ({ context }, now: number) => !scheduleDays(now, context.timeZone).includes(context.day),
    isSearching: (_, query: string) => isSearching(query),
    hasMissingDays: ({ context }) => missingDays(context).length > 0
  },
  actions: {
    keepViewer: assign((_, viewer: GuideViewer) => {
      const days = scheduleDays(viewer.now, viewer.timeZone)
      return { ...viewer, timeshiftHours: viewer.timeshiftHours ?? 0, days, day: days[0] ?? "" }
    }),
    keepDay: assign((_, day: string) => ({ day })),
    keepSchedule: assign(({ context }, { day, answer }: Loaded) => ({ schedules: { ...context.schedules, [day]: itemsOf(answer) } })),
    /** the sentence after what failed: how the schedule's call failed, or what to do when the viewer could not be read */
    keepFailure: assign((_, hint: string) => ({ error: `${GUIDE_FAILED_MESSAGE} ${hint}` })),
    keepStreams: assign((_, answer: Answer<"streams">) => ({ streams: streamsOf(answer) })),
    keepQuery: assign((_, query: string) => ({ query })),
    pickSearchDay: assign(({ context }) => ({ searchDay: missingDays(context)[0] ?? "" })),
    keepTime: assign(({ context }, now: number) => ({ now, days: scheduleDays(now, context.timeZone) })),
    // past midnight yesterday is no longer in the select: show the new today
    chooseToday: raise(({ context }) => ({ type: "day.choose" as const, day: context.days[0] ?? "" }))
  }
}).createMachine({
  id: "guide",
  context: {
    timeZone: "UTC",
    now: 0,
    player: DEFAULT_PLAYER_CHOICE,
    timeshiftHours: 0,
    days: [],
    day: "",
    schedules: {},
    streams: [],
    query: "",
    searchDay: "",
    error: null
  },
  initial: "preparing",
  states: {
    preparing: {
      tags: ["loading"],
      invoke: {
        src: "readViewer",
        onDone: { target: "open", actions: { type: "keepViewer", params: ({ event }) => event.output } },
        onError: { target: "unprepared", actions: { type: "keepFailure", params: CONNECTION_HINT } }
      }
    },
    unprepared: {
      tags: ["failed"],
      on: { "day.retry": { target: "preparing" } }
    },
    open: {
      type: "parallel",
      invoke: { src: "clock", input: { everyMs: CLOCK_TICK_MS } },
      on: {
        "clock.ticked": [
          {
            guard: { type: "dayLeftBehind", params: ({ event }) => event.now },
            actions: [{ type: "keepTime", params: ({ event }) => event.now }, "chooseToday"]
          },
          { actions: { type: "keepTime", params: ({ event }) => event.now } }
        ]
      },
      states: {
        day: {
          initial: "loading",
          on: {
            "day.choose": [
              {
                guard: { type: "isLoaded", params: ({ event }) => event.day },
                target: ".loaded",
                actions: { type: "keepDay", params: ({ event }) => event.day }
              },
              {
                guard: { type: "isGuideDay", params: ({ event }) => event.day },
                target: ".loading",
                reenter: true,
                actions: { type: "keepDay", params: ({ event }) => event.day }
              }
            ]
          },
          states: {
            loading: {
              tags: ["loading"],
              invoke: {
                src: "loadSchedule",
                input: ({ context }) => ({ day: context.day, timeZone: context.timeZone }),
                onDone: [
                  {
                    guard: { type: "gotData", params: answerOf },
                    target: "loaded",
                    actions: { type: "keepSchedule", params: ({ context, event }) => ({ day: context.day, answer: event.output }) }
                  },
                  { target: "failed", actions: { type: "keepFailure", params: fromAnswer(failureHint) } }
                ]
              }
            },
            // whether anything is left to show changes as programmes end, so both re-check on every event
            loaded: { always: { guard: not("dayHasProgrammes"), target: "empty" } },
            empty: { always: { guard: "dayHasProgrammes", target: "loaded" } },
            failed: {
              tags: ["failed"],
              on: { "day.retry": { target: "loading" } }
            }
          }
        },
        streams: {
          initial: "loading",
          states: {
            loading: {
              invoke: {
                src: "loadStreams",
                onDone: [
                  { guard: { type: "gotData", params: answerOf }, target: "ready", actions: { type: "keepStreams", params: answerOf } },
                  { target: "unavailable" }
                ]
              }
            },
            ready: {},
            // the guide still shows; only its Watch links wait for the streams
            unavailable: {
              tags: ["streamsUnavailable"],
              on: { "day.retry": { target: "loading" }, "streams.retry": { target: "loading" } }
            }
          }
        },
        search: {
          initial: "idle",
          on: {
            "search.change": [
              {
                guard: { type: "isSearching", params: ({ event }) => event.query },
                actions: { type: "keepQuery", params: ({ event }) => event.query }
              },
              { target: ".idle", actions: { type: "keepQuery", params: ({ event }) => event.query } }
            ]
          },
          states: {
            idle: {
              on: {
                "search.change": {
                  guard: { type: "isSearching", params: ({ event }) => event.query },
                  target: "next",
                  actions: { type: "keepQuery", params: ({ event }) => event.query }
                }
              }
            },
            next: { always: [{ guard: "hasMissingDays", target: "fetching" }, { target: "complete" }] },
            // the other days load one at a time, so results grow day by day
            fetching: {
              entry: "pickSearchDay",
              invoke: {
                src: "loadSchedule",
                input: ({ context }) => ({ day: context.searchDay, timeZone: context.timeZone }),
                onDone: [
                  {
                    guard: { type: "gotData", params: answerOf },
                    target: "next",
                    actions: { type: "keepSchedule", params: ({ context, event }) => ({ day: context.searchDay, answer: event.output }) }
                  },
                  { target: "incomplete" }
                ]
              }
            },
            // a new seventh day appears at midnight
            complete: { always: { guard: "hasMissingDays", target: "next" } },
            incomplete: { on: { "search.retry": { target: "next" } } }
          }
        }
      }
    }
  }
})
