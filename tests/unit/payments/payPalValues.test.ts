import { describe, expect, it } from "vitest"
import { dateReadings, instantOf, parseAmount, parseDay, parseTime, zoneOf } from "../../../src/server/payments/payPalValues.ts"

describe("parseAmount", () => {
  it.each([
    ["5.00", 5],
    ["4.35", 4.35],
    ["-0.65", -0.65],
    ["1,234.50", 1234.5],
    ["12,345,678.90", 12345678.9],
    ["1.234,50", 1234.5],
    ["1 234,50", 1234.5],
    ["1\u00a0234,50", 1234.5],
    ["1'234.50", 1234.5],
    ["12,50", 12.5],
    ["1,500", 1500],
    ["1.500", 1500],
    ["1500", 1500],
    ["0", 0],
    ["(5.00)", -5],
    ["+5.00", 5],
    ["−3.10", -3.1],
    [" 7.25 ", 7.25]
  ])("reads %j as %d", (text, value) => {
    expect(parseAmount(text)).toBe(value)
  })

  it("never answers minus zero", () => {
    expect(Object.is(parseAmount("-0.00"), 0)).toBe(true)
  })

  it.each(["", "-", "abc", "5.", ".5", "1,23,456", "1,234.5.6", "1.234.5", "5 USD", "$5.00", "1e3", "12,34,567", "1..5"])(
    "refuses %j",
    (text) => {
      expect(parseAmount(text)).toBeUndefined()
    }
  )
})

describe("dates, times and zones", () => {
  it("knows which orders a date could be written in", () => {
    expect(dateReadings("23/11/2026")).toEqual(["dmy"])
    expect(dateReadings("11/23/2026")).toEqual(["mdy"])
    expect(dateReadings("05/11/2026")).toEqual(["dmy", "mdy"])
    expect(dateReadings("2026-11-23")).toEqual(["ymd"])
    expect(dateReadings("23.11.2026")).toEqual(["dmy"])
    for (const text of ["", "23/11/26", "2026/11", "November 23, 2026", "32/13/2026"]) expect(dateReadings(text), text).toEqual([])
  })

  it("reads a real calendar day in the order asked", () => {
    expect(parseDay("23/11/2026", "dmy")).toEqual({ year: 2026, month: 11, day: 23 })
    expect(parseDay("11/23/2026", "mdy")).toEqual({ year: 2026, month: 11, day: 23 })
    expect(parseDay("2026-11-23", "ymd")).toEqual({ year: 2026, month: 11, day: 23 })
    expect(parseDay("29/02/2028", "dmy")).toEqual({ year: 2028, month: 2, day: 29 })
    expect(parseDay("29/02/2026", "dmy")).toBeUndefined()
    expect(parseDay("11/23/2026", "dmy")).toBeUndefined()
    expect(parseDay("2026-11-23", "dmy")).toBeUndefined()
  })

  it("reads 24-hour and 12-hour times; an empty one is midnight", () => {
    expect(parseTime("14:05:09")).toEqual({ hour: 14, minute: 5, second: 9 })
    expect(parseTime("14:05")).toEqual({ hour: 14, minute: 5, second: 0 })
    expect(parseTime("2:05:09 PM")).toEqual({ hour: 14, minute: 5, second: 9 })
    expect(parseTime("12:00:00 AM")).toEqual({ hour: 0, minute: 0, second: 0 })
    expect(parseTime("")).toEqual({ hour: 0, minute: 0, second: 0 })
    for (const text of ["24:00:00", "13:00 PM", "9", "10:60", "noon"]) expect(parseTime(text), text).toBeUndefined()
  })

  it("turns PayPal's zone names into the offset they stood for", () => {
    const at = (zone: string) => instantOf({ year: 2026, month: 7, day: 1 }, { hour: 12, minute: 0, second: 0 }, zoneOf(zone) ?? "")
    expect(at("PDT")).toBe("2026-07-01T19:00:00.000Z")
    expect(at("PST")).toBe("2026-07-01T20:00:00.000Z")
    expect(at("CEST")).toBe("2026-07-01T10:00:00.000Z")
    expect(at("BST")).toBe("2026-07-01T11:00:00.000Z")
    expect(at("GMT+02:00")).toBe("2026-07-01T10:00:00.000Z")
    expect(at("UTC-5")).toBe("2026-07-01T17:00:00.000Z")
    expect(at("Europe/Oslo")).toBe("2026-07-01T10:00:00.000Z")
    expect(at("")).toBe("2026-07-01T12:00:00.000Z")
    for (const zone of ["Mars/Olympus", "XYZ", "+25:00"]) expect(zoneOf(zone), zone).toBeUndefined()
  })
})
