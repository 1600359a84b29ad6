import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { PaymentProvider } from "../../../src/server/db/schema.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

/**
 * A small history whose figures were worked out by hand. The server's clock is 2026-01-15 12:00 UTC.
 *
 * | account | verified            | payments (provider, gross, date → paid until)                  |
 * |---------|---------------------|----------------------------------------------------------------|
 * | a       | 2025-11-20          | paypal 5.00 2025-11-20 → 12-20; paypal 5.00 2025-12-20 → 01-20 |
 * | b       | 2025-12-31 23:30    | btc 10.00 2026-01-01 00:10 → 02-01                             |
 * | c       | 2026-01-05          | paypal 7.50 2026-01-05 → 02-05; paypal 7.50 2026-01-10 → 03-05 |
 * | d       | 2026-01-10          | none                                                           |
 * | e       | never               | none                                                           |
 * | f       | 2025-10-01          | btc 20.00 2025-10-01 → 11-01                                   |
 * | deleted | (account gone)      | paypal 5.00 2025-12-01                                         |
 * | staff   | 2026-01-15 12:00    | none                                                           |
 */
describe.each(dialects)("admin reports ($name)", (dialect) => {
  let server: TestServer
  let staffToken: string
  let customerToken: string

  const verifiedAt = async (email: string, at: string | null) => {
    const user = await server.addUser({ email, verified: at !== null })
    await server.db.kysely.updateTable("users").set({ email_verified_at: at }).where("id", "=", user.id).execute()
    return user.id
  }
  const pay = (userId: number | null, provider: PaymentProvider, price: number, at: string, until: string | null) =>
    server.db.kysely
      .insertInto("payments")
      .values({
        user_id: userId,
        provider,
        price,
        paypal_transaction_id: provider === "paypal" ? `TX-${at}` : null,
        created_at: at,
        period_start: until === null ? null : at,
        period_end: until
      })
      .execute()

  beforeAll(async () => {
    server = await startTestServer(dialect)
    await server.addUser({ email: "desk@example.com", staff: true })
    staffToken = await server.signIn("desk@example.com")
    const a = await verifiedAt("a@example.com", "2025-11-20T09:00:00.000Z")
    const b = await verifiedAt("b@example.com", "2025-12-31T23:30:00.000Z")
    const c = await verifiedAt("c@example.com", "2026-01-05T08:00:00.000Z")
    await verifiedAt("d@example.com", "2026-01-10T08:00:00.000Z")
    await verifiedAt("e@example.com", null)
    const f = await verifiedAt("f@example.com", "2025-10-01T08:00:00.000Z")
    customerToken = await server.signIn("d@example.com")
    await pay(a, "paypal", 5, "2025-11-20T10:00:00.000Z", "2025-12-20T10:00:00.000Z")
    await pay(a, "paypal", 5, "2025-12-20T10:00:00.000Z", "2026-01-20T10:00:00.000Z")
    await pay(b, "btc", 10, "2026-01-01T00:10:00.000Z", "2026-02-01T00:10:00.000Z")
    await pay(c, "paypal", 7.5, "2026-01-05T09:00:00.000Z", "2026-02-05T09:00:00.000Z")
    await pay(c, "paypal", 7.5, "2026-01-10T09:00:00.000Z", "2026-03-05T09:00:00.000Z")
    await pay(f, "btc", 20, "2025-10-01T09:00:00.000Z", "2025-11-01T09:00:00.000Z")
    await pay(null, "paypal", 5, "2025-12-01T12:00:00.000Z", null)
  })
  afterAll(() => server.dispose())

  const reports = async (start: string, end: string) => {
    const response = await server.call("reports", { token: staffToken, body: { dates: { start, end } } })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }
  const series = async (start: string, end: string) => {
    const response = await server.call("reportSeries", { token: staffToken, body: { dates: { start, end } } })
    expect(response.statusCode, response.body).toBe(200)
    return response.json()
  }

  const ALL_TIME = {
    subscriptions: 4,
    members: 6,
    numberOfPayments: 7,
    ordersPaypal: 5,
    ordersBtc: 2,
    revenue: 60,
    revenuePaypal: 30,
    revenueBtc: 30
  }

  it("counts this month's figures, today's subscribers and all time", async () => {
    expect(await reports("2026-01-01", "2026-01-15")).toEqual({
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
      allTime: ALL_TIME
    })
  })

  it("a range across months counts the deleted account's payment but not as a subscriber", async () => {
    const body = await reports("2025-12-01", "2026-01-15")
    expect(body.last30days).toEqual({
      newSubscriptions: 2,
      newMembers: 4,
      numberOfPayments: 5,
      revenue: 35,
      ordersPaypalLast30Days: 4,
      ordersBtcLast30Days: 1,
      revenuePaypalLast30Days: 25,
      revenueBtcLast30Days: 10
    })
    expect(body.allTime).toEqual(ALL_TIME)
  })

  it("a bitcoin-only month and a year without payments", async () => {
    expect((await reports("2025-10-01", "2025-10-31")).last30days).toEqual({
      newSubscriptions: 1,
      newMembers: 1,
      numberOfPayments: 1,
      revenue: 20,
      ordersPaypalLast30Days: 0,
      ordersBtcLast30Days: 1,
      revenuePaypalLast30Days: 0,
      revenueBtcLast30Days: 20
    })
    expect((await reports("2024-01-01", "2024-12-31")).last30days).toEqual({
      newSubscriptions: 0,
      newMembers: 0,
      numberOfPayments: 0,
      revenue: 0,
      ordersPaypalLast30Days: 0,
      ordersBtcLast30Days: 0,
      revenuePaypalLast30Days: 0,
      revenueBtcLast30Days: 0
    })
  })

  it("the daily series fills every day and compares with the period before", async () => {
    const body = await series("2026-01-01", "2026-01-03")
    expect(body.days).toEqual([
      { day: "2026-01-01", orders: 1, revenue: 10, revenueExcludingFees: 10, newMembers: 0, newSubscriptions: 1 },
      { day: "2026-01-02", orders: 0, revenue: 0, revenueExcludingFees: 0, newMembers: 0, newSubscriptions: 0 },
      { day: "2026-01-03", orders: 0, revenue: 0, revenueExcludingFees: 0, newMembers: 0, newSubscriptions: 0 }
    ])
    expect(body.previous).toEqual({
      start: "2025-12-29",
      end: "2025-12-31",
      totals: { orders: 0, revenue: 0, revenueExcludingFees: 0, newMembers: 1, newSubscriptions: 0 }
    })
  })

  it("totals the range less 0.65 per PayPal order", async () => {
    const body = await series("2026-01-01", "2026-01-15")
    expect(body.days).toHaveLength(15)
    expect(body.days[4]).toEqual({
      day: "2026-01-05",
      orders: 1,
      revenue: 7.5,
      revenueExcludingFees: 6.85,
      newMembers: 1,
      newSubscriptions: 1
    })
    expect(body.totals).toEqual({ orders: 3, revenue: 25, revenueExcludingFees: 23.7, newMembers: 3, newSubscriptions: 2 })
    expect(body.previous).toEqual({
      start: "2025-12-17",
      end: "2025-12-31",
      totals: { orders: 1, revenue: 5, revenueExcludingFees: 4.35, newMembers: 1, newSubscriptions: 0 }
    })
  })

  it("the picker's extremes answer without failing", async () => {
    expect((await reports("0100-01-01", "9999-12-31")).last30days.numberOfPayments).toBe(7)
    expect((await series("0100-01-01", "0100-01-02")).previous).toMatchObject({ start: "0099-12-30", end: "0099-12-31" })
  })

  it.each(["reports", "reportSeries"] as const)("%s is for staff only", async (name) => {
    const body = { dates: { start: "2026-01-01", end: "2026-01-15" } }
    expect((await server.call(name, { body })).statusCode).toBe(403)
    expect((await server.call(name, { token: customerToken, body })).statusCode).toBe(403)
  })

  it.each([
    [{ dates: { start: "2026-01-15", end: "2026-01-01" } }, "dates: the range ends (2026-01-01) before it starts (2026-01-15)"],
    [{ dates: { start: "2026-02-30", end: "2026-03-01" } }, "dates.start: Expected a date as YYYY-MM-DD"],
    [{ dates: { start: "2026-01-01" } }, "dates.end: Missing key"],
    [{ start: "2026-01-01", end: "2026-01-02" }, "dates: Missing key"]
  ])("refuses %j with 400", async (body, detail) => {
    const response = await server.call("reports", { token: staffToken, body })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({ success: false, status: 400, resultCode: 19, detail })
  })

  it("refuses daily figures over more than ten years", async () => {
    const response = await server.call("reportSeries", { token: staffToken, body: { dates: { start: "2000-01-01", end: "2026-01-01" } } })
    expect(response.statusCode).toBe(400)
    expect(response.json().detail).toMatch(/at most 3660 days/)
  })
})
