import { DATE_LOCALE } from "../../domain/Dates.ts"

/** How the report charts write their ticks and legend: the page's locale (SPEC §9: en-GB), whole counts. */

const dayFormat = new Intl.DateTimeFormat(DATE_LOCALE, { day: "numeric", month: "short", timeZone: "UTC" })
const currency = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })
const wholeCurrency = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD", maximumFractionDigits: 0 })
const count = new Intl.NumberFormat(DATE_LOCALE, { maximumFractionDigits: 0 })

/** A day of the time axis (seconds at noon UTC) as the page writes it: 15 Nov, never the US 11/15. */
export const dayTick = (seconds: number): string => dayFormat.format(seconds * 1000)

/** An amount on the money axis: $1,000 for whole dollars, $2.50 between them. */
export const moneyTick = (value: number): string => (Number.isInteger(value) ? wholeCurrency.format(value) : currency.format(value))

/** An amount in the legend, to the cent. */
export const moneyValue = (value: number): string => currency.format(value)

/** A count, whole and grouped: 1,000. */
export const countValue = (value: number): string => count.format(value)

/** The steps a count axis may take between ticks: whole numbers only, never a quarter of a member. */
export const COUNT_INCREMENTS: ReadonlyArray<number> = Array.from({ length: 10 }, (_, power) =>
  [1, 2, 5].map((step) => step * 10 ** power)
).flat()

/** A count axis's range: from 0, and at least up to 1, so a quiet range still has whole ticks. */
export const countRange = (max: number | null): [number, number] => [0, Math.max(1, Math.ceil(max ?? 0))]

/**
 * The width an axis needs for its widest label, so "$1,000.00" is never cut to ",000.00": the
 * tick length, the gap and the text, measured with the axis's own font.
 */
export const axisWidth = (labels: ReadonlyArray<string>, measure: (text: string) => number, tickAndGap: number): number => {
  const widest = labels.reduce((most, label) => Math.max(most, measure(label)), 0)
  return Math.ceil(tickAndGap + widest + 4)
}
