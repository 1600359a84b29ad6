import { describe, expect, it } from "vitest"
import { axisWidth, COUNT_INCREMENTS, countRange, countValue, dayTick, moneyTick, moneyValue } from "../../../src/ui/reports/chartAxes.ts"

describe("the report charts' axes and legend", () => {
  it("write days as the en-GB page does, not the US month/day", () => {
    expect(dayTick(Date.parse("2026-11-15T12:00:00Z") / 1000)).toBe("15 Nov")
    expect(dayTick(Date.parse("2026-01-03T12:00:00Z") / 1000)).toBe("3 Jan")
  })

  it("write whole dollars on the money axis short, amounts in the legend to the cent, counts whole", () => {
    expect(moneyTick(1000)).toBe("$1,000")
    expect(moneyTick(2.5)).toBe("$2.50")
    expect(moneyValue(15)).toBe("$15.00")
    expect(countValue(1234)).toBe("1,234")
  })

  it("step counts by whole numbers only, from 0 and up to at least 1", () => {
    expect(COUNT_INCREMENTS.every(Number.isInteger)).toBe(true)
    expect(COUNT_INCREMENTS.slice(0, 4)).toEqual([1, 2, 5, 10])
    expect(countRange(0)).toEqual([0, 1])
    expect(countRange(null)).toEqual([0, 1])
    expect(countRange(2.25)).toEqual([0, 3])
  })

  it("make the y axis as wide as its widest label, so none is cut", () => {
    const measure = (text: string) => text.length * 7
    expect(axisWidth(["$0", "$1,000.00", "$500"], measure, 15)).toBe(15 + 63 + 4)
    expect(axisWidth([], measure, 15)).toBe(19)
  })
})
