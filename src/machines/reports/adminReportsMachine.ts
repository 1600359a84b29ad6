import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { CallResult } from "../../domain/api.ts"
import { formatDay } from "../../domain/Dates.ts"
import { defaultReportRange } from "../../domain/ReportRanges.ts"
import type { ConnectionsInfo, ReportSeries, Reports } from "../../domain/Reports.ts"
import { detailOf, failureHint, isFailure } from "../shared/apiResult.ts"
import { notProvided } from "../shared/notProvided.ts"
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
  readonly reports: CallResult<"reports"> | undefined
  readonly series: CallResult<"reportSeries"> | undefined
}

export type ReportView = "reports" | "users"
export type ReportMode = "light" | "detailed"

export type AdminReportsEvent =
  | { readonly type: "view.toggle" }
  | { readonly type: "mode.switch" }
  | { readonly type: "users.refresh" }
  /** staff end a live connection: its player stops at its next playlist request */
  | { readonly type: "users.end"; readonly id: number }
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
  /** the page of the 'Sessions Streaming' table shown, kept across refreshes */
  readonly usersPage: number
  readonly usersError: string | null
}

export interface AdminReportsInput {
  /** the staff member's today, for the default range (now, unless a test says otherwise) */
  readonly today?: Date
}

const loadedReports = (answers: ReportAnswers): Partial<AdminReportsContext> => {
  const { reports, series } = answers
  if (isFailure(reports)) return {}
  return isFailure(series)
    ? {
        reports,
        series: null,
        seriesNote: detailOf(series) ?? `The charts could not be loaded. ${failureHint(series)}`,
        reportsError: null
      }
    : { reports, series, seriesNote: null, reportsError: null }
}

const rangeText = ({ start, end }: DayRange): string => (start === end ? formatDay(start) : `${formatDay(start)} – ${formatDay(end)}`)

const adminReportsSetup = setup({
  types: {
    context: {} as AdminReportsContext,
    events: {} as AdminReportsEvent,
    input: {} as AdminReportsInput | undefined
  },
  actors: {
    loadReports: fromPromise<ReportAnswers, DayRange>(notProvided("loadReports")),
    loadConnections: fromPromise<CallResult<"connections"> | undefined, { readonly page: number }>(notProvided("loadConnections")),
    endConnection: fromPromise<CallResult<"endConnection"> | undefined, { readonly id: number }>(notProvided("endConnection"))
  },
  delays: { usersRefresh: USERS_REFRESH_MS },
  guards: {
    reportsLoaded: (_, answers: ReportAnswers | undefined) => answers !== undefined && !isFailure(answers.reports),
    connectionsLoaded: (_, answer: CallResult<"connections"> | undefined) => !isFailure(answer),
    connectionEnded: (_, answer: CallResult<"endConnection"> | undefined) => !isFailure(answer) && answer.success,
    hasPendingStart: ({ context }) => context.pendingStart !== null
  },
  actions: {
    notify: (_, _content: NotificationContent) => {},
    keepReports: assign((_, answers: ReportAnswers) => loadedReports(answers)),
    keepReportsFailure: assign((_, answers: ReportAnswers | undefined) => ({
      reportsError: `${REPORTS_FAILED_MESSAGE} ${failureHint(answers?.reports)}`
    })),
    // the server sends the last page when the one asked for has emptied meanwhile
    keepConnections: assign(({ context }, answer: ConnectionsInfo) => ({
      connections: answer,
      usersPage: answer.page?.number ?? context.usersPage,
      usersError: null
    })),
    turnPage: assign((_, page: number) => ({ usersPage: Math.max(1, Math.floor(page)) })),
    keepConnectionsFailure: assign((_, answer: CallResult<"connections"> | undefined) => ({
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
      {
        guard: { type: "connectionsLoaded", params: ({ event }) => event.output },
        target: "loaded",
        actions: { type: "keepConnections", params: ({ event }) => event.output as ConnectionsInfo }
      },
      { target: "failed", actions: { type: "keepConnectionsFailure", params: ({ event }) => event.output } }
    ],
    onError: { target: "failed", actions: { type: "keepConnectionsFailure", params: () => undefined } }
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
      states: {
        // asked for: on opening, by Refresh Users, by the pager, after ending a connection
        loading: {
          ...fetchingConnections,
          tags: ["usersLoading"],
          on: {
            "users.page": { target: "loading", reenter: true, actions: { type: "turnPage", params: ({ event }) => event.page } },
            "users.end": { target: "ending" }
          }
        },
        // the view keeps itself current while it is open, quietly: the tables stay usable meanwhile
        polling: {
          ...fetchingConnections,
          on: {
            "users.refresh": { target: "loading" },
            "users.page": { target: "loading", actions: { type: "turnPage", params: ({ event }) => event.page } },
            "users.end": { target: "ending" }
          }
        },
        loaded: {
          after: { usersRefresh: "polling" },
          on: {
            "users.refresh": { target: "loading" },
            "users.end": { target: "ending" },
            "users.page": { target: "loading", actions: { type: "turnPage", params: ({ event }) => event.page } }
          }
        },
        ending: {
          tags: ["usersLoading", "connectionEnding"],
          // the page asked for meanwhile is the one loaded once the connection is ended
          on: { "users.page": { actions: { type: "turnPage", params: ({ event }) => event.page } } },
          invoke: {
            src: "endConnection",
            input: ({ event }) => ({ id: event.type === "users.end" ? event.id : 0 }),
            onDone: [
              {
                guard: { type: "connectionEnded", params: ({ event }) => event.output },
                target: "loading",
                actions: {
                  type: "notify",
                  params: {
                    tone: "success",
                    title: CONNECTION_ENDED,
                    message: "Its player stops within a few seconds and tells the viewer staff ended it."
                  }
                }
              },
              {
                target: "loading",
                actions: {
                  type: "notify",
                  params: ({ event }) => ({
                    tone: "error",
                    title: CONNECTION_END_FAILED,
                    message: detailOf(event.output) ?? failureHint(event.output)
                  })
                }
              }
            ],
            onError: {
              target: "loading",
              actions: { type: "notify", params: { tone: "error", title: CONNECTION_END_FAILED, message: failureHint(undefined) } }
            }
          }
        },
        failed: {
          tags: ["usersFailed"],
          on: {
            "users.refresh": { target: "loading" },
            "users.page": { target: "loading", actions: { type: "turnPage", params: ({ event }) => event.page } }
          }
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
        loading: {
          tags: ["reportsLoading"],
          invoke: {
            src: "loadReports",
            input: ({ context }) => context.range,
            onDone: [
              {
                guard: { type: "reportsLoaded", params: ({ event }) => event.output },
                target: "loaded",
                actions: { type: "keepReports", params: ({ event }) => event.output }
              },
              { target: "failed", actions: { type: "keepReportsFailure", params: ({ event }) => event.output } }
            ],
            onError: { target: "failed", actions: { type: "keepReportsFailure", params: () => undefined } }
          }
        },
        /** a range the staff member picked: loaded like the first, then announced */
        choosing: {
          tags: ["reportsLoading"],
          invoke: {
            src: "loadReports",
            input: ({ context }) => context.range,
            onDone: [
              {
                guard: { type: "reportsLoaded", params: ({ event }) => event.output },
                target: "loaded",
                actions: [
                  { type: "keepReports", params: ({ event }) => event.output },
                  {
                    type: "notify",
                    params: ({ context }) => ({ tone: "success", title: REPORTS_LOADED, message: rangeText(context.range) })
                  }
                ]
              },
              { target: "failed", actions: { type: "keepReportsFailure", params: ({ event }) => event.output } }
            ],
            onError: { target: "failed", actions: { type: "keepReportsFailure", params: () => undefined } }
          }
        },
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
  error: snapshot.hasTag("usersFailed") ? snapshot.context.usersError : null,
  connections: snapshot.context.connections,
  page: snapshot.context.usersPage
})
