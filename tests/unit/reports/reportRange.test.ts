import { describe, expect, it } from "vitest"
import { formatDay, yearPage } from "../../../src/domain/Dates.ts"
import { daysOf, defaultReportRange, previousRange, rangeDays } from "../../../src/domain/ReportRanges.ts"
import { changeAgainst, reportCsv, revenueExcludingFees } from "../../../src/domain/Reports.ts"

describe("report ranges", () => {
  it("counts both ends and nothing for a range that ends first", () => {
    expect(rangeDays("2026-01-01", "2026-01-01")).toBe(1)
    expect(rangeDays("2026-02-01", "2026-03-01")).toBe(29)
    expect(rangeDays("2028-02-01", "2028-03-01")).toBe(30)
    expect(rangeDays("2026-01-02", "2026-01-01")).toBe(0)
  })

  it("the period before has the same length and ends the day before", () => {
    expect(previousRange("2026-03-01", "2026-03-31")).toEqual({ start: "2026-01-29", end: "2026-02-28" })
    expect(previousRange("2026-01-01", "2026-01-01")).toEqual({ start: "2025-12-31", end: "2025-12-31" })
    expect(previousRange("0100-01-01", "0100-01-01")).toEqual({ start: "0099-12-31", end: "0099-12-31" })
  })

  it("lists every day, across a daylight-saving change and a leap day", () => {
    expect(daysOf("2024-02-28", "2024-03-01")).toEqual(["2024-02-28", "2024-02-29", "2024-03-01"])
    expect(daysOf("2026-03-28", "2026-03-30")).toEqual(["2026-03-28", "2026-03-29", "2026-03-30"])
    expect(daysOf("9999-12-31", "9999-12-31")).toEqual(["9999-12-31"])
  })

  it("starts on the first of the current month and ends today, in UTC days as the server counts them", () => {
    expect(defaultReportRange(new Date("2026-11-24T23:30:00Z"))).toEqual({ start: "2026-11-01", end: "2026-11-24" })
    expect(defaultReportRange(new Date("2026-01-01T00:05:00Z"))).toEqual({ start: "2026-01-01", end: "2026-01-01" })
    // the evening of 30 November in New York is already 1 December in UTC
    expect(defaultReportRange(new Date("2026-11-30T21:30:00-05:00"))).toEqual({ start: "2026-12-01", end: "2026-12-01" })
  })
})

describe("report figures", () => {
  it("takes 0.65 off per PayPal order, to the cent", () => {
    expect(revenueExcludingFees(25, 2)).toBe(23.7)
    expect(revenueExcludingFees(0.1 + 0.2, 0)).toBe(0.3)
    expect(revenueExcludingFees(0, 0)).toBe(0)
  })

  it("changes against the period before, with nothing before as no comparison", () => {
    expect(changeAgainst(15, 10)).toBe(0.5)
    expect(changeAgainst(5, 10)).toBe(-0.5)
    expect(changeAgainst(0, 0)).toBe(0)
    expect(changeAgainst(3, 0)).toBeNull()
  })
})

describe("report presentation", () => {
  it("writes days en-GB whatever the zone", () => {
    expect(formatDay("2026-11-24")).toBe("24/11/2026")
    expect(formatDay("0100-01-01")).toBe("01/01/0100")
    expect(formatDay("garbage")).toBe("---")
  })

  it("pages the year grid twelve years at a time from year 100 to 10000", () => {
    expect(yearPage(100)).toEqual([100, 101, 102, 103, 104, 105, 106, 107, 108, 109, 110, 111])
    expect(yearPage(2026)).toEqual([2020, 2021, 2022, 2023, 2024, 2025, 2026, 2027, 2028, 2029, 2030, 2031])
    expect(yearPage(9999)).toEqual([9988, 9989, 9990, 9991, 9992, 9993, 9994, 9995, 9996, 9997, 9998, 9999])
    expect(yearPage(10000)).toEqual([10000])
    expect(yearPage(50)[0]).toBe(100)
  })

  it("downloads the days as CSV", () => {
    expect(
      reportCsv([{ day: "2026-11-01", orders: 2, revenue: 12.5, revenueExcludingFees: 11.2, newMembers: 1, newSubscriptions: 0 }])
    ).toBe("day,orders,revenue,revenue_excluding_fees,new_members,new_subscriptions\r\n2026-11-01,2,12.50,11.20,1,0\r\n")
  })
})
