import { describe, expect, it } from "vitest"
import { formatDate } from "../../../src/domain/Dates.ts"
import { costAfterRedeeming, formatPrice, priceAfterDiscount, rewardOptions } from "../../../src/domain/Invitation.ts"
import { parseDiscountRates } from "../../../src/domain/SiteSettings.ts"

describe("the reward-redemption selector's bounds", () => {
  it("stops where the points' value would pass the discounted price, counting in cents", () => {
    // 5 × 0.95 = 4.75: three points of 1.5 (4.50) fit, a fourth (6.00) does not
    expect(rewardOptions(10, 1.5, priceAfterDiscount(5, 5))).toEqual([0, 1, 2, 3])
    // 0.1 × 3 is 0.30000000000000004 in floating point; it must still fit a price of 0.30
    expect(rewardOptions(5, 0.1, 0.3)).toEqual([0, 1, 2, 3])
    // points worth exactly the price fit
    expect(rewardOptions(9, 1, 5)).toEqual([0, 1, 2, 3, 4, 5])
  })

  it("values points at a price that is not whole cents by rounding their sum, not each point", () => {
    // 40 points of $0.125 are worth $5.00, not 40 × $0.13
    expect(rewardOptions(40, 0.125, 5).at(-1)).toBe(40)
    expect(costAfterRedeeming(5, 38, 0.125)).toBe(0.25)
    // a point of $0.004 takes its share off: 125 of them are $0.50
    expect(costAfterRedeeming(5, 125, 0.004)).toBe(4.5)
    expect(formatPrice(0.125)).toBe("$0.125")
    expect(formatPrice(0.004)).toBe("$0.004")
  })

  it("never goes past the points the viewer has, and offers only 0 without points or price", () => {
    expect(rewardOptions(2, 1, 5)).toEqual([0, 1, 2])
    expect(rewardOptions(0, 1, 5)).toEqual([0])
    expect(rewardOptions(4, 1, 0)).toEqual([0])
  })

  it("prices the next month after the discount and the points", () => {
    expect(priceAfterDiscount(5, 0)).toBe(5)
    expect(priceAfterDiscount(5, 15)).toBe(4.25)
    expect(priceAfterDiscount(9.99, 10)).toBe(8.99)
    expect(priceAfterDiscount(5, 100)).toBe(0)
    expect(costAfterRedeeming(4.75, 3, 1.5)).toBe(0.25)
    expect(costAfterRedeeming(5, 0, 1)).toBe(5)
    expect(costAfterRedeeming(0.3, 3, 0.1)).toBe(0)
  })

  it("writes amounts as dollars, cents only when there are some", () => {
    expect(formatPrice(5)).toBe("$5")
    expect(formatPrice(4.75)).toBe("$4.75")
    expect(formatPrice(0.5)).toBe("$0.50")
    expect(formatPrice(1234.5)).toBe("$1,234.50")
  })
})

describe("discount rates as the operator writes them", () => {
  it("reads comma-separated percentages from 0 to 100", () => {
    expect(parseDiscountRates("0,5,10,15")).toEqual([0, 5, 10, 15])
    expect(parseDiscountRates(" 0 , 12.5 ")).toEqual([0, 12.5])
    expect(parseDiscountRates("100")).toEqual([100])
  })

  it("refuses anything else", () => {
    for (const text of ["", "5,", "-5", "101", "ten", "5;10", "1e2"]) expect(parseDiscountRates(text), text).toBeUndefined()
  })
})

describe("dates on the viewer's pages", () => {
  it("are en-GB day, month and year, and '---' when there is none", () => {
    expect(formatDate("2026-11-24T12:00:00.000Z")).toBe("24/11/2026")
    expect(formatDate("")).toBe("---")
  })
})
