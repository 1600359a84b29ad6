import { tz } from "@date-fns/tz"
import { addMonths } from "date-fns/addMonths"

/** Where a payment came from; a payment's provider is stored with it. */
export const PAYMENT_PROVIDERS = ["paypal", "btc"] as const
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number]

export const isPaymentProvider = (text: string): text is PaymentProvider => (PAYMENT_PROVIDERS as ReadonlyArray<string>).includes(text)

/** ISO 4217: three letters, upper case. */
export const CURRENCY_PATTERN = /^[A-Z]{3}$/

/** A month of subscription: from `start` up to, not including, `end`; ISO-8601 UTC. */
export interface PaidPeriod {
  readonly start: string
  readonly end: string
}

const utc = tz("UTC")
const iso = (date: Date): string => new Date(date.getTime()).toISOString()

/** One calendar month on, in UTC: 31 January ends on 28 (or 29) February. */
export const monthAfter = (start: string): string => iso(addMonths(new Date(start), 1, { in: utc }))

/**
 * The month a payment buys: it starts at the later of its own time and the end of what the
 * account had already paid for, so months paid in advance follow each other.
 */
export const periodFor = (paidAt: string, paidUntil: string | undefined): PaidPeriod => {
  const start = paidUntil !== undefined && Date.parse(paidUntil) > Date.parse(paidAt) ? paidUntil : paidAt
  return { start, end: monthAfter(start) }
}

/** The end of the last month paid for, if any. */
export const paidUntil = (periods: ReadonlyArray<PaidPeriod>): string | undefined =>
  periods.reduce<string | undefined>((latest, period) => (latest === undefined || period.end > latest ? period.end : latest), undefined)

/**
 * The run of paid months that covers `now`: from the start of the first month in an unbroken
 * chain up to the end of the last one. Undefined when no month covers `now`.
 */
export const activeRun = (periods: ReadonlyArray<PaidPeriod>, now: number): PaidPeriod | undefined => {
  const sorted = [...periods].sort((a, b) => Date.parse(a.start) - Date.parse(b.start))
  let run: PaidPeriod | undefined
  for (const period of sorted) {
    if (run !== undefined && Date.parse(period.start) <= Date.parse(run.end)) {
      if (Date.parse(period.end) > Date.parse(run.end)) run = { start: run.start, end: period.end }
      continue
    }
    if (run !== undefined && Date.parse(run.start) <= now && now < Date.parse(run.end)) return run
    run = period
  }
  return run !== undefined && Date.parse(run.start) <= now && now < Date.parse(run.end) ? run : undefined
}
