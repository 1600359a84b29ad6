import { describe, expect, it } from "vitest"
import { activeRun, monthAfter, paidUntil, periodFor } from "../../../src/domain/Payment.ts"
import { NO_ACTIVE_SUBSCRIPTION, paidUntilText } from "../../../src/domain/Subscription.ts"
import { formatAmount } from "../../../src/domain/Transaction.ts"

const month = (start: string, end: string) => ({ start, end })

describe("paid months", () => {
  it("last one calendar month in UTC, the end of a long month falling on the last day of a short one", () => {
    expect(monthAfter("2026-01-15T12:00:00.000Z")).toBe("2026-02-15T12:00:00.000Z")
    expect(monthAfter("2026-01-31T08:00:00.000Z")).toBe("2026-02-28T08:00:00.000Z")
    expect(monthAfter("2028-01-31T08:00:00.000Z")).toBe("2028-02-29T08:00:00.000Z")
    expect(monthAfter("2026-12-10T23:30:00.000Z")).toBe("2027-01-10T23:30:00.000Z")
    expect(monthAfter("2026-03-28T01:30:00.000Z")).toBe("2026-04-28T01:30:00.000Z")
  })

  it("start when paid, or where the months already paid for end, whichever is later", () => {
    expect(periodFor("2026-01-15T12:00:00.000Z", undefined)).toEqual(month("2026-01-15T12:00:00.000Z", "2026-02-15T12:00:00.000Z"))
    expect(periodFor("2026-01-20T00:00:00.000Z", "2026-02-15T12:00:00.000Z")).toEqual(
      month("2026-02-15T12:00:00.000Z", "2026-03-15T12:00:00.000Z")
    )
    expect(periodFor("2026-04-01T00:00:00.000Z", "2026-02-15T12:00:00.000Z")).toEqual(
      month("2026-04-01T00:00:00.000Z", "2026-05-01T00:00:00.000Z")
    )
    expect(paidUntil([month("a", "2026-02-15T12:00:00.000Z"), month("b", "2026-03-15T12:00:00.000Z")])).toBe("2026-03-15T12:00:00.000Z")
    expect(paidUntil([])).toBeUndefined()
  })

  it("make one run while they follow each other, and only a run covering now is active", () => {
    const periods = [
      month("2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z"),
      month("2026-03-10T00:00:00.000Z", "2026-04-10T00:00:00.000Z"),
      month("2026-05-10T00:00:00.000Z", "2026-06-10T00:00:00.000Z"),
      month("2026-04-10T00:00:00.000Z", "2026-05-10T00:00:00.000Z")
    ]
    const at = (iso: string) => activeRun(periods, Date.parse(iso))
    expect(at("2026-01-15T00:00:00.000Z")).toEqual(month("2026-01-01T00:00:00.000Z", "2026-02-01T00:00:00.000Z"))
    expect(at("2026-02-01T00:00:00.000Z")).toBeUndefined()
    expect(at("2026-02-20T00:00:00.000Z")).toBeUndefined()
    expect(at("2026-04-20T00:00:00.000Z")).toEqual(month("2026-03-10T00:00:00.000Z", "2026-06-10T00:00:00.000Z"))
    expect(at("2026-06-09T23:59:59.000Z")).toEqual(month("2026-03-10T00:00:00.000Z", "2026-06-10T00:00:00.000Z"))
    expect(at("2026-06-10T00:00:00.000Z")).toBeUndefined()
    expect(activeRun([], Date.parse("2026-01-15T00:00:00.000Z"))).toBeUndefined()
  })

  it("are shown as the viewer reads them", () => {
    expect(NO_ACTIVE_SUBSCRIPTION).toBe("No active subscription")
    expect(paidUntilText("2026-12-23T12:00:00.000Z")).toMatch(/^Paid until \d{2}\/12\/2026$/)
  })
})

describe("formatAmount", () => {
  it("writes dollars as the other pages do, and other currencies with their own sign", () => {
    expect(formatAmount(5, "USD")).toBe("$5")
    expect(formatAmount(4.75, "USD")).toBe("$4.75")
    expect(formatAmount(1234.5, "EUR")).toBe("€1,234.50")
    expect(formatAmount(1500, "JPY")).toBe("¥1,500")
    expect(formatAmount(5, "GBP")).toBe("£5.00")
    expect(formatAmount(0.00012, "BTC")).toBe("BTC\u00a00.00012")
  })
})
