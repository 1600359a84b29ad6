import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { runAdmin } from "../../../src/server/cli/admin.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { payment, payPalCsv } from "./fixtures/payPalExport.ts"

const ENDPOINTS = ["payments", "activeSubscription", "subscriptionPlans"] as const

describe.each(dialects)("payments and subscriptions over HTTP ($name)", (dialect) => {
  let server: TestServer
  let dir: string
  const admin = async (...argv: string[]) => {
    const lines: string[] = []
    const code = await runAdmin(argv, { config: server.config, out: (text) => lines.push(text), db: server.db, now: () => server.clock })
    expect(code, lines.join("\n")).toBe(0)
    return lines.join("\n")
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    dir = await mkdtemp(join(tmpdir(), "streamhub-payments-api-"))
    await server.addUser({ email: "payer@example.com" })
    await server.addUser({ email: "other@example.com" })
    await server.addUser({ email: "staff@example.com", staff: true })
  })
  afterAll(async () => {
    await server.dispose()
    await rm(dir, { recursive: true, force: true })
  })

  it.each(ENDPOINTS)("refuses %s to a visitor without a session with 403, as every signed-in endpoint does", async (name) => {
    const response = await server.call(name)
    expect(response.statusCode).toBe(403)
    expect(response.json()).toMatchObject({ success: false, status: 403, detail: "Please sign in to continue." })
    expect((await server.call(name, { token: "not-a-session" })).statusCode).toBe(403)
  })

  it("answers a customer and a staff member without payments: no transactions, no subscription, the plans", async () => {
    for (const email of ["payer@example.com", "staff@example.com"]) {
      const token = await server.signIn(email)
      expect((await server.call("payments", { token })).json()).toEqual({ success: true, data: [] })
      expect((await server.call("activeSubscription", { token })).json()).toEqual({ resultCode: 3, data: null })
      expect((await server.call("subscriptionPlans", { token })).json()).toEqual({
        resultCode: 1,
        subscriptionPrice: 5,
        discountRates: [0, 5, 10, 15]
      })
    }
  })

  it("answers the plans from the site settings", async () => {
    await admin("settings:set", "--key", "subscriptionPrice", "--value", "7.5")
    await admin("settings:set", "--key", "discountRates", "--value", "0,12.5")
    const token = await server.signIn("other@example.com")
    expect((await server.call("subscriptionPlans", { token })).json()).toEqual({
      resultCode: 1,
      subscriptionPrice: 7.5,
      discountRates: [0, 12.5]
    })
    // a value edited by hand in the database that no longer reads falls back to the default rates
    await server.db.kysely
      .updateTable("settings")
      .set({ value: JSON.stringify("ten") })
      .where("key", "=", "discountRates")
      .execute()
    expect((await server.call("subscriptionPlans", { token })).json()).toMatchObject({ discountRates: [0, 5, 10, 15] })
  })

  it("lists the caller's own payments, newest first, and the paid months that cover now as one subscription", async () => {
    const file = join(dir, `export-${dialect.name}.csv`)
    await writeFile(
      file,
      payPalCsv([
        payment({
          Date: "10/01/2026",
          Time: "09:00:00",
          TimeZone: "UTC",
          "From Email Address": "PAYER@example.com",
          "Transaction ID": "2SECOND000000000",
          Currency: "EUR",
          Gross: "1,234.50"
        }),
        payment({
          Date: "20/12/2025",
          Time: "09:00:00",
          TimeZone: "UTC",
          "From Email Address": "payer@example.com",
          "Transaction ID": "1FIRST0000000000"
        }),
        payment({
          Date: "13/01/2026",
          Time: "09:00:00",
          TimeZone: "UTC",
          "From Email Address": "other@example.com",
          "Transaction ID": "3OTHER0000000000"
        })
      ])
    )
    await admin("payment:import", "--file", file)
    await admin(
      "payment:add",
      "--email",
      "payer@example.com",
      "--amount",
      "5",
      "--provider",
      "btc",
      "--currency",
      "USD",
      "--date",
      "2026-01-12"
    )
    const token = await server.signIn("payer@example.com")
    const othersList = (await server.call("payments", { token: await server.signIn("other@example.com") })).json() as {
      data: Array<Record<string, unknown>>
    }
    expect(othersList.data.map((row) => [row.id, row.paypal_transaction_id])).toEqual([[1, "3OTHER0000000000"]])

    const listed = (await server.call("payments", { token })).json() as { data: Array<Record<string, unknown>> }
    // numbered per account, 1 for its first payment, whatever other accounts paid in between
    expect(listed.data).toEqual([
      { id: 3, paypal_transaction_id: null, created_at: "2026-01-12T00:00:00.000Z", price: 5, currency: "USD" },
      {
        id: 2,
        paypal_transaction_id: "2SECOND000000000",
        created_at: "2026-01-10T09:00:00.000Z",
        price: 1234.5,
        currency: "EUR"
      },
      {
        id: 1,
        paypal_transaction_id: "1FIRST0000000000",
        created_at: "2025-12-20T09:00:00.000Z",
        price: 5,
        currency: "USD"
      }
    ])

    // 20 Dec → 20 Jan, then 20 Jan → 20 Feb and 20 Feb → 20 Mar: one run covering 15 January
    server.clock = Date.parse("2026-01-15T12:00:00.000Z")
    expect((await server.call("activeSubscription", { token })).json()).toEqual({
      resultCode: 1,
      data: { planId: 1, startedAt: "2025-12-20T09:00:00.000Z", expiresAt: "2026-03-20T09:00:00.000Z" }
    })
    // sessions expire: each move of the clock signs in afresh
    server.clock = Date.parse("2026-03-20T09:00:00.000Z")
    expect((await server.call("activeSubscription", { token: await server.signIn("payer@example.com") })).json()).toEqual({
      resultCode: 3,
      data: null
    })

    // a month paid after a gap starts a new run
    server.clock = Date.parse("2026-04-01T00:00:00.000Z")
    await admin("payment:add", "--email", "payer@example.com", "--amount", "5", "--date", "2026-03-25")
    expect((await server.call("activeSubscription", { token: await server.signIn("payer@example.com") })).json()).toEqual({
      resultCode: 1,
      data: { planId: 1, startedAt: "2026-03-25T00:00:00.000Z", expiresAt: "2026-04-25T00:00:00.000Z" }
    })

    const staff = await server.signIn("staff@example.com")
    expect((await server.call("payments", { token: staff })).json()).toEqual({ success: true, data: [] })
    const other = await server.signIn("other@example.com")
    expect(((await server.call("payments", { token: other })).json() as { data: unknown[] }).data).toHaveLength(1)
  })

  it("counts a payment recorded before paid months were kept from its own date", async () => {
    const user = await server.addUser({ email: "legacy@example.com" })
    await server.db.kysely
      .insertInto("payments")
      .values({ user_id: user.id, paypal_transaction_id: "LEGACY0000000001", price: 5, created_at: "2026-03-30T00:00:00.000Z" })
      .execute()
    server.clock = Date.parse("2026-04-15T00:00:00.000Z")
    const token = await server.signIn("legacy@example.com")
    expect((await server.call("activeSubscription", { token })).json()).toEqual({
      resultCode: 1,
      data: { planId: 1, startedAt: "2026-03-30T00:00:00.000Z", expiresAt: "2026-04-30T00:00:00.000Z" }
    })
    expect(((await server.call("payments", { token })).json() as { data: unknown[] }).data).toEqual([
      {
        id: expect.any(Number),
        paypal_transaction_id: "LEGACY0000000001",
        created_at: "2026-03-30T00:00:00.000Z",
        price: 5,
        currency: "USD"
      }
    ])
  })
})
