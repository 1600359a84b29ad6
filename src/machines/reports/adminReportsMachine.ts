import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, bodyOf, detailOf, isSuccess } from "../../domain/contract/answer.ts"
import { formatDay } from "../../domain/Dates.ts"
import { defaultReportRange } from "../../domain/ReportRanges.ts"
import type { ConnectionsInfo, ReportSeries, Reports } from "../../domain/Reports.ts"
import { failureHint, failureReason } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf, eventOf, fromAnswer } from "../shared/params.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"

export const REPORTS_LOADED = "Reports loaded."
export const REPORTS_FAILED_MESSAGE = "The reports could not be loaded."
export const USERS_FAILED_MESSAGE = "The live connections could not be loaded."
export const CONNECTION_ENDED = "Connection ended."
export const CONNECTION_END_FAILED = "The connection could not be ended."
/** While the page is open, the live connections load again this often. */
export const USERS_REFRESH_MS = 5000

export interface DayRange {
  readonly start: string
  readonly end: string
}

/** A report range's two answers: the SPEC's figures, and the days behind the charts. */
export interface ReportAnswers {
  readonly reports: Answer<"reports">
  readonly series: Answer<"reportSeries">
}

export type ReportView = "reports" | "users"
export type ReportMode = "light" | "detailed"

export type AdminReportsEvent =
  | { readonly type: "view.toggle" }
  | { readonly type: "mode.switch" }
  | { readonly type: "users.refresh" }
  /** staff ask to end a live connection: nothing happens until they confirm */
  | { readonly type: "users.end"; readonly id: number; readonly email: string; readonly stream?: string }
  /** ending it is confirmed: its player stops at its next playlist request */
  | { readonly type: "users.endConfirm" }
  | { readonly type: "users.endCancel" }
  /** another page of the 'Sessions Streaming' table (1-based) */
  | { readonly type: "users.page"; readonly page: number }
  | { readonly type: "reports.retry" }
  /** a day clicked in the picker: the first starts a range, the second ends it (in either order) */
  | { readonly type: "range.day"; readonly day: string }
  /** a whole range at once */
  | { readonly type: "range.choose"; readonly start: string; readonly end: string }

export interface AdminReportsContext {
  readonly view: ReportView
  readonly mode: ReportMode
  readonly range: DayRange
  /** the first day picked of a range still missing its end */
  readonly pendingStart: string | null
  readonly reports: Reports | null
  readonly series: ReportSeries | null
  /** why the charts are missing while the figures are there (a range too long to chart) */
  readonly seriesNote: string | null
  readonly reportsError: string | null
  readonly connections: ConnectionsInfo | null
  /** the connection staff asked to end, waiting for their confirmation */
  readonly endAsked: EndAsked | null
  /** the connection being ended */
  readonly endingId: number | null
  /** the page of the 'Sessions Streaming' table shown, kept across refreshes */
  readonly usersPage: number
  readonly usersError: string | null
}

/** A live connection staff asked to end, as the confirmation names it. */
export interface EndAsked {
  readonly id: number
  readonly email: string
  readonly stream?: string
}

export interface AdminReportsInput {
  /** the staff member's today, for the default range (now, unless a test says otherwise) */
  readonly today?: Date
}

const loadedReports = ({ reports, series }: ReportAnswers): Partial<AdminReportsContext> => {
  if (reports._tag !== "ok") return {}
  return series._tag === "ok"
    ? { reports: reports.body, series: series.body, seriesNote: null, reportsError: null }
    : {
        reports: reports.body,
        series: null,
        seriesNote: detailOf(series) ?? `The charts could not be loaded. ${failureHint(series)}`,
        reportsError: null
      }
}

const rangeText = ({ start, end }: DayRange): string => (start === end ? formatDay(start) : `${formatDay(start)} – ${formatDay(end)}`)
const rangeLoaded = (range: DayRange): NotificationContent => ({ tone: "success", title: REPORTS_LOADED, message: rangeText(range) })

const CONNECTION_ENDED_NOTICE: NotificationContent = {
  tone: "success",
  title: CONNECTION_ENDED,
  message: "Its player stops within a few seconds and tells the viewer staff ended it."
}
const endFailure = (answer: Answer<"endConnection">): NotificationContent => ({
  tone: "error",
  title: CONNECTION_END_FAILED,
  message: failureReason(answer)
})

const adminReportsSetup = setup({
  types: {
    context: {} as AdminReportsContext,
    events: {} as AdminReportsEvent,
    input: {} as AdminReportsInput | undefined
  },
  actors: {
    loadReports: fromPromise<ReportAnswers, DayRange>(notProvided("loadReports")),
    loadConnections: fromPromise<Answer<"connections">, { readonly page: number }>(notProvided("loadConnections")),
    endConnection: fromPromise<Answer<"endConnection">, { readonly id: number }>(notProvided("endConnection"))
  },
  delays: { usersRefresh: USERS_REFRESH_MS },
  guards: {
    reportsLoaded: (_, answers: ReportAnswers) => answers.reports._tag === "ok",
    connectionsLoaded: (_, answer: Answer<"connections">) => answer._tag === "ok",
    connectionEnded: (_, answer: Answer<"endConnection">) => isSuccess(answer),
    hasPendingStart: ({ context }) => context.pendingStart !== null,
    hasEndAsked: ({ context }) => context.endAsked !== null
  },
  actions: {
    notify: (_, _content: NotificationContent) => {},
    keepReports: assign((_, answers: ReportAnswers) => loadedReports(answers)),
    keepReportsFailure: assign((_, answers: ReportAnswers) => ({
      reportsError: `${REPORTS_FAILED_MESSAGE} ${failureHint(answers.reports)}`
    })),
    // the server sends the last page when the one asked for has emptied meanwhile
    keepConnections: assign(({ context }, answer: Answer<"connections">) => {
      const connections = bodyOf(answer)
      return connections === undefined ? {} : { connections, usersPage: connections.page?.number ?? context.usersPage, usersError: null }
    }),
    askEnd: assign((_, endAsked: EndAsked) => ({ endAsked })),
    cancelEnd: assign({ endAsked: null }),
    confirmEnd: assign(({ context }) => ({ endingId: context.endAsked?.id ?? null, endAsked: null })),
    turnPage: assign((_, { page }: { readonly page: number }) => ({ usersPage: Math.max(1, Math.floor(page)) })),
    keepConnectionsFailure: assign((_, answer: Answer<"connections">) => ({
      usersError: `${USERS_FAILED_MESSAGE} ${failureHint(answer)}`
    })),
    toggleView: assign(({ context }) => ({ view: context.view === "reports" ? ("users" as const) : ("reports" as const) })),
    switchMode: assign(({ context }) => ({ mode: context.mode === "light" ? ("detailed" as const) : ("light" as const) })),
    startRange: assign((_, start: string) => ({ pendingStart: start })),
    keepRange: assign((_, { start, end }: DayRange) => ({
      range: start <= end ? { start, end } : { start: end, end: start },
      pendingStart: null
    }))
  }
})

/** One request for a page of connections, whoever asked for it. */
const fetchingConnections = adminReportsSetup.createStateConfig({
  invoke: {
    src: "loadConnections",
    input: ({ context }) => ({ page: context.usersPage }),
    onDone: [
      { guard: { type: "connectionsLoaded", params: answerOf }, target: "loaded", actions: { type: "keepConnections", params: answerOf } },
      { target: "failed", actions: { type: "keepConnectionsFailure", params: answerOf } }
    ]
  }
})

// What the users view asks for means the same in every state that takes it: Refresh Users and
// another page load the connections again, a confirmed End ends one first.
const REFRESH_USERS = { target: "loading" } as const
const TURN_PAGE = { type: "turnPage", params: eventOf } as const
const GO_TO_PAGE = { target: "loading", reenter: true, actions: TURN_PAGE } as const
const END_CONNECTION = { guard: "hasEndAsked", target: "ending", actions: "confirmEnd" } as const

const ANNOUNCE_RANGE = {
  type: "notify",
  params: ({ context }: { readonly context: AdminReportsContext }) => rangeLoaded(context.range)
} as const

/** One request for the range's reports; a range the staff member picked is announced once it is in. */
const fetchingReports = (announce: boolean) =>
  adminReportsSetup.createStateConfig({
    tags: ["reportsLoading"],
    invoke: {
      src: "loadReports",
      input: ({ context }) => context.range,
      onDone: [
        {
          guard: { type: "reportsLoaded", params: answerOf },
          target: "loaded",
          actions: [{ type: "keepReports", params: answerOf }, ...(announce ? [ANNOUNCE_RANGE] : [])]
        },
        { target: "failed", actions: { type: "keepReportsFailure", params: answerOf } }
      ]
    }
  })

/** /adminreports (SPEC §2): the live connections, and the subscriber and revenue reports over a picked range. */
export const adminReportsMachine = adminReportsSetup.createMachine({
  id: "adminReports",
  type: "parallel",
  context: ({ input }) => ({
    view: "reports",
    mode: "light",
    range: defaultReportRange(input?.today ?? new Date()),
    pendingStart: null,
    reports: null,
    series: null,
    seriesNote: null,
    reportsError: null,
    connections: null,
    endAsked: null,
    endingId: null,
    usersPage: 1,
    usersError: null
  }),
  on: {
    "view.toggle": { actions: "toggleView" },
    "mode.switch": { actions: "switchMode" }
  },
  states: {
    users: {
      initial: "loading",
      // End asks first; the answer is taken whatever the table is doing meanwhile
      on: {
        "users.end": { actions: { type: "askEnd", params: ({ event }) => ({ id: event.id, email: event.email, stream: event.stream }) } },
        "users.endCancel": { actions: "cancelEnd" }
      },
      states: {
        // asked for: on opening, by Refresh Users, by the pager, after ending a connection
        loading: {
          ...fetchingConnections,
          tags: ["usersLoading"],
          on: { "users.page": GO_TO_PAGE, "users.endConfirm": END_CONNECTION }
        },
        // the view keeps itself current while it is open, quietly: the tables stay usable meanwhile
        polling: {
          ...fetchingConnections,
          on: { "users.refresh": REFRESH_USERS, "users.page": GO_TO_PAGE, "users.endConfirm": END_CONNECTION }
        },
        loaded: {
          after: { usersRefresh: "polling" },
          on: { "users.refresh": REFRESH_USERS, "users.page": GO_TO_PAGE, "users.endConfirm": END_CONNECTION }
        },
        ending: {
          tags: ["usersLoading", "connectionEnding"],
          // the page asked for meanwhile is the one loaded once the connection is ended
          on: { "users.page": { actions: TURN_PAGE } },
          invoke: {
            src: "endConnection",
            input: ({ context }) => ({ id: context.endingId ?? 0 }),
            onDone: [
              {
                guard: { type: "connectionEnded", params: answerOf },
                target: "loading",
                actions: { type: "notify", params: CONNECTION_ENDED_NOTICE }
              },
              { target: "loading", actions: { type: "notify", params: fromAnswer(endFailure) } }
            ]
          }
        },
        failed: {
          tags: ["usersFailed"],
          on: { "users.refresh": REFRESH_USERS, "users.page": GO_TO_PAGE }
        }
      }
    },
    reports: {
      initial: "loading",
      on: {
        "range.day": [
          {
            guard: "hasPendingStart",
            target: ".choosing",
            reenter: true,
            actions: { type: "keepRange", params: ({ context, event }) => ({ start: context.pendingStart ?? event.day, end: event.day }) }
          },
          { actions: { type: "startRange", params: ({ event }) => event.day } }
        ],
        "range.choose": { target: ".choosing", reenter: true, actions: { type: "keepRange", params: ({ event }) => event } }
      },
      states: {
        loading: fetchingReports(false),
        /** a range the staff member picked: loaded like the first, then announced */
        choosing: fetchingReports(true),
        loaded: {},
        failed: { tags: ["reportsFailed"], on: { "reports.retry": { target: "loading" } } }
      }
    }
  }
})

export type AdminReportsSnapshot = SnapshotFrom<typeof adminReportsMachine>

export const selectView = (snapshot: AdminReportsSnapshot): ReportView => snapshot.context.view
export const selectMode = (snapshot: AdminReportsSnapshot): ReportMode => snapshot.context.mode
export const selectRange = (snapshot: AdminReportsSnapshot): DayRange => snapshot.context.range
export const selectPendingStart = (snapshot: AdminReportsSnapshot): string | null => snapshot.context.pendingStart
export const selectReports = (snapshot: AdminReportsSnapshot) => ({
  loading: snapshot.hasTag("reportsLoading"),
  error: snapshot.hasTag("reportsFailed") ? snapshot.context.reportsError : null,
  reports: snapshot.context.reports,
  series: snapshot.context.series,
  seriesNote: snapshot.context.seriesNote
})
export const selectUsers = (snapshot: AdminReportsSnapshot) => ({
  loading: snapshot.hasTag("usersLoading"),
  ending: snapshot.hasTag("connectionEnding"),
  endAsked: snapshot.context.endAsked,
  error: snapshot.hasTag("usersFailed") ? snapshot.context.usersError : null,
  connections: snapshot.context.connections,
  page: snapshot.context.usersPage
})
