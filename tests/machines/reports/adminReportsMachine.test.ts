import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import { type Answer, answered, refused, unreachable } from "../../../src/domain/contract/answer.ts"
import type { ConnectionsInfo, ReportSeries, Reports } from "../../../src/domain/Reports.ts"
import {
  adminReportsMachine,
  CONNECTION_END_FAILED,
  CONNECTION_ENDED,
  type DayRange,
  REPORTS_FAILED_MESSAGE,
  REPORTS_LOADED,
  type ReportAnswers,
  selectMode,
  selectPendingStart,
  selectRange,
  selectReports,
  selectUsers,
  selectView,
  USERS_FAILED_MESSAGE,
  USERS_REFRESH_MS
} from "../../../src/machines/reports/adminReportsMachine.ts"
import { selectUsersPager } from "../../../src/machines/reports/usersPager.ts"
import type { NotificationContent } from "../../../src/machines/shell/notificationsMachine.ts"

const REPORTS: Reports = {
  current: { subscriptions: 3 },
  last30days: {
    newSubscriptions: 2,
    newMembers: 3,
    numberOfPayments: 3,
    revenue: 25,
    ordersPaypalLast30Days: 2,
    ordersBtcLast30Days: 1,
    revenuePaypalLast30Days: 15,
    revenueBtcLast30Days: 10
  },
  allTime: {
    subscriptions: 4,
    members: 6,
    numberOfPayments: 7,
    ordersPaypal: 5,
    ordersBtc: 2,
    revenue: 60,
    revenuePaypal: 30,
    revenueBtc: 30
  }
}
const TOTALS = { orders: 0, revenue: 0, revenueExcludingFees: 0, newMembers: 0, newSubscriptions: 0 }
const SERIES: ReportSeries = { days: [], totals: TOTALS, previous: { start: "2026-10-01", end: "2026-10-31", totals: TOTALS } }
const CONNECTIONS: ConnectionsInfo = {
  connections: { "ann@example.com": [{ timestamp: "2026-11-24T10:00:00.000Z", app: "tv", ip: "10.0.0.1", token: "t1" }] },
  unknownIps: []
}
const TODAY = new Date(2026, 10, 24, 15, 0)
const LOADED: ReportAnswers = { reports: answered(REPORTS), series: answered(SERIES) }

const start = (
  options: {
    reports?: (range: DayRange) => Promise<ReportAnswers>
    connections?: (page: number) => Promise<Answer<"connections">>
    end?: () => Promise<Answer<"endConnection">>
  } = {}
) => {
  const ranges: DayRange[] = []
  const ended: number[] = []
  const notes: NotificationContent[] = []
  let connectionLoads = 0
  const pages: number[] = []
  const actor = createActor(
    adminReportsMachine.provide({
      actors: {
        loadReports: fromPromise(({ input }) => {
          ranges.push(input)
          return options.reports?.(input) ?? Promise.resolve(LOADED)
        }),
        loadConnections: fromPromise<Answer<"connections">, { readonly page: number }>(({ input }) => {
          connectionLoads += 1
          pages.push(input.page)
          return options.connections?.(input.page) ?? Promise.resolve(answered(CONNECTIONS))
        }),
        endConnection: fromPromise<Answer<"endConnection">, { readonly id: number }>(({ input }) => {
          ended.push(input.id)
          return options.end?.() ?? Promise.resolve(answered({ success: true }))
        })
      },
      actions: { notify: (_, content) => void notes.push(content) }
    }),
    { input: { today: TODAY } }
  ).start()
  return { actor, ranges, notes, ended, pages, connectionLoads: () => connectionLoads }
}

const settled = (actor: ReturnType<typeof start>["actor"]) =>
  waitFor(actor, (snapshot) => !snapshot.hasTag("reportsLoading") && !snapshot.hasTag("usersLoading"))

describe("admin reports machine", () => {
  it("loads this month's reports and the live connections at once, quietly", async () => {
    const { actor, ranges, notes } = start()
    const snapshot = await settled(actor)
    expect(ranges).toEqual([{ start: "2026-11-01", end: "2026-11-24" }])
    expect(selectReports(snapshot)).toMatchObject({ loading: false, error: null, reports: REPORTS, series: SERIES, seriesNote: null })
    expect(selectUsers(snapshot)).toMatchObject({ loading: false, error: null, connections: CONNECTIONS })
    expect(selectView(snapshot)).toBe("reports")
    expect(selectMode(snapshot)).toBe("light")
    expect(notes).toEqual([])
  })

  it("two picked days make a range in either order, loaded and announced", async () => {
    const { actor, ranges, notes } = start()
    await settled(actor)
    actor.send({ type: "range.day", day: "2026-10-20" })
    expect(selectPendingStart(actor.getSnapshot())).toBe("2026-10-20")
    expect(ranges).toHaveLength(1)
    actor.send({ type: "range.day", day: "2026-10-05" })
    const snapshot = await settled(actor)
    expect(selectRange(snapshot)).toEqual({ start: "2026-10-05", end: "2026-10-20" })
    expect(selectPendingStart(snapshot)).toBeNull()
    expect(ranges.at(-1)).toEqual({ start: "2026-10-05", end: "2026-10-20" })
    expect(notes).toEqual([{ tone: "success", title: REPORTS_LOADED, message: "05/10/2026 – 20/10/2026" }])
  })

  it("a newer range replaces one still loading", async () => {
    let release: (answers: ReportAnswers) => void = () => {}
    const { actor, ranges, notes } = start({
      reports: (range) =>
        range.start === "2026-09-01"
          ? new Promise((resolve) => {
              release = resolve
            })
          : Promise.resolve(LOADED)
    })
    await settled(actor)
    actor.send({ type: "range.choose", start: "2026-09-01", end: "2026-09-30" })
    actor.send({ type: "range.choose", start: "2026-08-01", end: "2026-08-31" })
    const snapshot = await settled(actor)
    release(LOADED)
    expect(selectRange(snapshot)).toEqual({ start: "2026-08-01", end: "2026-08-31" })
    expect(ranges.map((range) => range.start)).toEqual(["2026-11-01", "2026-09-01", "2026-08-01"])
    expect(notes).toHaveLength(1)
  })

  it("keeps the figures when only the charts fail, and says why", async () => {
    const { actor } = start({
      reports: async () => ({
        reports: answered(REPORTS),
        series: refused(400, "dates: the daily figures cover at most 3660 days; choose a shorter range", 19)
      })
    })
    const snapshot = await settled(actor)
    expect(selectReports(snapshot)).toMatchObject({
      reports: REPORTS,
      series: null,
      seriesNote: "dates: the daily figures cover at most 3660 days; choose a shorter range"
    })
  })

  it("fails with a reason and loads again on retry", async () => {
    let calls = 0
    const { actor } = start({
      reports: async () =>
        calls++ === 0 ? { reports: unreachable("network", "offline"), series: unreachable("network", "offline") } : LOADED
    })
    let snapshot = await settled(actor)
    expect(selectReports(snapshot).error).toBe(`${REPORTS_FAILED_MESSAGE} Check your connection and try again.`)
    actor.send({ type: "reports.retry" })
    snapshot = await settled(actor)
    expect(selectReports(snapshot)).toMatchObject({ error: null, reports: REPORTS })
  })

  it("refreshes the users on request, and recovers from a failure", async () => {
    let calls = 0
    const { actor, connectionLoads } = start({
      connections: async () => (calls++ === 0 ? refused(500, "boom") : answered(CONNECTIONS))
    })
    let snapshot = await settled(actor)
    expect(selectUsers(snapshot).error).toBe(`${USERS_FAILED_MESSAGE} Please try again in a moment.`)
    actor.send({ type: "users.refresh" })
    snapshot = await settled(actor)
    expect(selectUsers(snapshot)).toMatchObject({ error: null, connections: CONNECTIONS })
    expect(connectionLoads()).toBe(2)
  })

  it("loads the users again every few seconds while open", async () => {
    vi.useFakeTimers()
    try {
      const { actor, connectionLoads } = start()
      await vi.advanceTimersByTimeAsync(0)
      expect(connectionLoads()).toBe(1)
      await vi.advanceTimersByTimeAsync(USERS_REFRESH_MS)
      expect(connectionLoads()).toBe(2)
      await vi.advanceTimersByTimeAsync(USERS_REFRESH_MS)
      expect(connectionLoads()).toBe(3)
      actor.stop()
      await vi.advanceTimersByTimeAsync(3 * USERS_REFRESH_MS)
      expect(connectionLoads()).toBe(3)
    } finally {
      vi.useRealTimers()
    }
  })

  it("polls quietly: the tables stay usable, and End or a page asked for during a poll is taken", async () => {
    vi.useFakeTimers()
    try {
      let answer: (value: Answer<"connections">) => void = () => undefined
      let loads = 0
      const { actor, ended, pages } = start({
        connections: () =>
          loads++ === 0 ? Promise.resolve(answered(CONNECTIONS)) : new Promise<Answer<"connections">>((resolve) => (answer = resolve))
      })
      await vi.advanceTimersByTimeAsync(0)
      await vi.advanceTimersByTimeAsync(USERS_REFRESH_MS)
      expect(loads).toBe(2)
      // a poll under way is not a refresh anyone asked for
      expect(selectUsers(actor.getSnapshot()).loading).toBe(false)
      actor.send({ type: "users.end", id: 7, email: "viewer@example.com" })
      actor.send({ type: "users.endConfirm" })
      expect(selectUsers(actor.getSnapshot()).ending).toBe(true)
      // the pager during the ending: that page is the one loaded after it
      actor.send({ type: "users.page", page: 2 })
      await vi.advanceTimersByTimeAsync(0)
      expect(ended).toEqual([7])
      expect(pages.at(-1)).toBe(2)
      answer(answered(CONNECTIONS))
      await vi.advanceTimersByTimeAsync(0)
      expect(selectUsers(actor.getSnapshot())).toMatchObject({ loading: false, page: 2 })
      // Refresh Users during a poll asks again, and shows it
      await vi.advanceTimersByTimeAsync(USERS_REFRESH_MS)
      actor.send({ type: "users.refresh" })
      expect(selectUsers(actor.getSnapshot()).loading).toBe(true)
      actor.stop()
    } finally {
      vi.useRealTimers()
    }
  })

  it("ends a connection once staff confirm (not on the first click, nor after a cancel), says so, and loads the users again; a failure says why", async () => {
    let endings = 0
    const { actor, ended, notes, connectionLoads } = start({
      end: async () =>
        endings++ === 0
          ? answered({ success: true })
          : answered({ success: false, detail: "That connection is not live: it has ended already" })
    })
    await settled(actor)
    actor.send({ type: "users.end", id: 7, email: "viewer@example.com", stream: "Demo Channel 1" })
    let snapshot = await settled(actor)
    // End asks first: nothing is ended until staff confirm
    expect(ended).toEqual([])
    expect(selectUsers(snapshot).endAsked).toEqual({ id: 7, email: "viewer@example.com", stream: "Demo Channel 1" })
    actor.send({ type: "users.endCancel" })
    snapshot = await settled(actor)
    expect(selectUsers(snapshot).endAsked).toBeNull()
    actor.send({ type: "users.endConfirm" })
    snapshot = await settled(actor)
    expect(ended).toEqual([])
    actor.send({ type: "users.end", id: 7, email: "viewer@example.com", stream: "Demo Channel 1" })
    actor.send({ type: "users.endConfirm" })
    snapshot = await settled(actor)
    expect(selectUsers(snapshot).endAsked).toBeNull()
    expect(ended).toEqual([7])
    expect(connectionLoads()).toBe(2)
    expect(notes.at(-1)).toMatchObject({ tone: "success", title: CONNECTION_ENDED })
    expect(selectUsers(snapshot).ending).toBe(false)
    actor.send({ type: "users.end", id: 7, email: "viewer@example.com" })
    actor.send({ type: "users.endConfirm" })
    snapshot = await settled(actor)
    expect(notes.at(-1)).toEqual({
      tone: "error",
      title: CONNECTION_END_FAILED,
      message: "That connection is not live: it has ended already"
    })
  })

  it("turns the pages of the sessions table, keeps the page across refreshes, and follows the server to the last page", async () => {
    const paged = (page: number): ConnectionsInfo => ({
      ...CONNECTIONS,
      page: { number: Math.min(page, 3), size: 50, rows: 120 },
      accounts: 1,
      multiple: []
    })
    const { actor, pages } = start({ connections: async (page) => answered(paged(page)) })
    let snapshot = await settled(actor)
    expect(selectUsers(snapshot).page).toBe(1)
    expect(selectUsersPager(snapshot)).toEqual({
      first: 1,
      last: 50,
      rows: 120,
      pages: 3,
      asked: 1,
      turning: false,
      canGoBack: false,
      canGoOn: true
    })
    actor.send({ type: "users.page", page: 2 })
    // the page asked for shows as loading until its rows are in
    expect(selectUsersPager(actor.getSnapshot())).toMatchObject({ first: 1, asked: 2, turning: true, canGoBack: true })
    snapshot = await settled(actor)
    expect(selectUsers(snapshot)).toMatchObject({ page: 2, connections: paged(2) })
    expect(selectUsersPager(snapshot)).toMatchObject({ first: 51, last: 100, turning: false })
    actor.send({ type: "users.refresh" })
    snapshot = await settled(actor)
    expect(pages).toEqual([1, 2, 2])
    // a page that emptied meanwhile: the server answers with its last page, and the view follows
    actor.send({ type: "users.page", page: 5 })
    snapshot = await settled(actor)
    expect(selectUsers(snapshot).page).toBe(3)
    expect(selectUsersPager(snapshot)).toMatchObject({ first: 101, last: 120, canGoOn: false })
    // a newer page replaces one still loading; a page below the first is the first
    actor.send({ type: "users.page", page: 2 })
    actor.send({ type: "users.page", page: 0 })
    snapshot = await settled(actor)
    expect(pages.slice(-2)).toEqual([2, 1])
    expect(selectUsers(snapshot).page).toBe(1)
  })

  it("asks for the page it shows again after a failure", async () => {
    let calls = 0
    const { actor, pages } = start({
      connections: async (page) =>
        calls++ === 1 ? unreachable("network", "offline") : answered({ ...CONNECTIONS, page: { number: page, size: 50, rows: 200 } })
    })
    await settled(actor)
    actor.send({ type: "users.page", page: 3 })
    let snapshot = await settled(actor)
    expect(selectUsers(snapshot).error).toMatch(USERS_FAILED_MESSAGE)
    actor.send({ type: "users.page", page: 4 })
    snapshot = await settled(actor)
    expect(pages).toEqual([1, 3, 4])
    expect(selectUsers(snapshot)).toMatchObject({ error: null, page: 4 })
  })

  it("toggles the view and the report mode", async () => {
    const { actor } = start()
    await settled(actor)
    actor.send({ type: "view.toggle" })
    actor.send({ type: "mode.switch" })
    expect(selectView(actor.getSnapshot())).toBe("users")
    expect(selectMode(actor.getSnapshot())).toBe("detailed")
    actor.send({ type: "view.toggle" })
    actor.send({ type: "mode.switch" })
    expect(selectView(actor.getSnapshot())).toBe("reports")
    expect(selectMode(actor.getSnapshot())).toBe("light")
  })
})
