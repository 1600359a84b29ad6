import type { Kysely } from "kysely"
import type { reportsContract } from "../../domain/contract/reports.ts"
import { daysOf, previousRange, rangeDays } from "../../domain/ReportRanges.ts"
import { MAX_SERIES_DAYS, type ReportRange, type ReportTotals, revenueExcludingFees } from "../../domain/Reports.ts"
import type { Tables } from "../db/schema.ts"
import { invalidInput } from "../http/HttpFailure.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import {
  currentSubscriptions,
  dailyFigures,
  daySpan,
  everSubscribed,
  members,
  newSubscriptions,
  paymentFigures,
  type Span
} from "./reportQueries.ts"

export type ReportHandlers = HandlersOf<typeof reportsContract>

const cents = (amount: number): number => Math.round(amount * 100) / 100

/** The range's span; a range that ends before it starts is bad input. */
const spanOf = ({ dates }: ReportRange): Span => {
  if (dates.end < dates.start) throw invalidInput(`dates: the range ends (${dates.end}) before it starts (${dates.start})`)
  return daySpan(dates.start, dates.end)
}

async function totalsOf(db: Kysely<Tables>, span: Span): Promise<ReportTotals> {
  const [payments, verified, first] = await Promise.all([paymentFigures(db, span), members(db, span), newSubscriptions(db, span)])
  return {
    orders: payments.orders,
    revenue: cents(payments.revenue),
    revenueExcludingFees: revenueExcludingFees(payments.revenue, payments.ordersPaypal),
    newMembers: verified,
    newSubscriptions: first
  }
}

export function reportHandlers(db: Kysely<Tables>, now: () => number): ReportHandlers {
  return {
    async reports({ body }) {
      const span = spanOf(body)
      const [current, range, all, newSubs, newMembers, subscribed, allMembers] = await Promise.all([
        currentSubscriptions(db, new Date(now()).toISOString()),
        paymentFigures(db, span),
        paymentFigures(db),
        newSubscriptions(db, span),
        members(db, span),
        everSubscribed(db),
        members(db)
      ])
      return {
        current: { subscriptions: current },
        last30days: {
          newSubscriptions: newSubs,
          newMembers,
          numberOfPayments: range.orders,
          revenue: cents(range.revenue),
          ordersPaypalLast30Days: range.ordersPaypal,
          ordersBtcLast30Days: range.ordersBtc,
          revenuePaypalLast30Days: cents(range.revenuePaypal),
          revenueBtcLast30Days: cents(range.revenueBtc)
        },
        allTime: {
          subscriptions: subscribed,
          members: allMembers,
          numberOfPayments: all.orders,
          ordersPaypal: all.ordersPaypal,
          ordersBtc: all.ordersBtc,
          revenue: cents(all.revenue),
          revenuePaypal: cents(all.revenuePaypal),
          revenueBtc: cents(all.revenueBtc)
        }
      }
    },

    async reportSeries({ body }) {
      const span = spanOf(body)
      const { start, end } = body.dates
      if (rangeDays(start, end) > MAX_SERIES_DAYS) {
        throw invalidInput(`dates: the daily figures cover at most ${MAX_SERIES_DAYS} days; choose a shorter range`)
      }
      const previous = previousRange(start, end)
      const [daily, totals, before] = await Promise.all([
        dailyFigures(db, span),
        totalsOf(db, span),
        totalsOf(db, daySpan(previous.start, previous.end))
      ])
      const days = daysOf(start, end).map((day) => {
        const figures = daily.get(day)
        return {
          day,
          orders: figures?.orders ?? 0,
          revenue: cents(figures?.revenue ?? 0),
          revenueExcludingFees: revenueExcludingFees(figures?.revenue ?? 0, figures?.ordersPaypal ?? 0),
          newMembers: figures?.newMembers ?? 0,
          newSubscriptions: figures?.newSubscriptions ?? 0
        }
      })
      return { days, totals, previous: { ...previous, totals: before } }
    }
  }
}
