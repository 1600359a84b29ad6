import { Schema } from "effect"
import { IsoDay } from "./Dates.ts"

/** The payment provider's fee per order, taken off for revenue excluding fees (SPEC §9). */
export const PAYMENT_PROVIDER_FEE = 0.65
/** "This Month" in the reports means the last this many days (SPEC §9). */
export const REPORT_MONTH_DAYS = 30

export const Reports = Schema.Struct({
  current: Schema.Struct({ subscriptions: Schema.Number }),
  last30days: Schema.Struct({
    newSubscriptions: Schema.Number,
    newMembers: Schema.Number,
    numberOfPayments: Schema.Number,
    revenue: Schema.Number,
    ordersPaypalLast30Days: Schema.Number,
    ordersBtcLast30Days: Schema.Number,
    revenuePaypalLast30Days: Schema.Number,
    revenueBtcLast30Days: Schema.Number
  }),
  allTime: Schema.Struct({
    subscriptions: Schema.Number,
    members: Schema.Number,
    numberOfPayments: Schema.Number,
    ordersPaypal: Schema.Number,
    ordersBtc: Schema.Number,
    revenue: Schema.Number,
    revenuePaypal: Schema.Number,
    revenueBtc: Schema.Number
  })
})
export type Reports = typeof Reports.Type

export const ReportRange = Schema.Struct({ dates: Schema.Struct({ start: IsoDay, end: IsoDay }) })
export type ReportRange = typeof ReportRange.Type

export const ConnectionEntry = Schema.Struct({
  timestamp: Schema.String,
  app: Schema.String,
  ip: Schema.String,
  token: Schema.String
})
export type ConnectionEntry = typeof ConnectionEntry.Type

export const ConnectionsInfo = Schema.Struct({
  connections: Schema.Record(Schema.String, Schema.Array(ConnectionEntry)),
  unknownIps: Schema.Array(Schema.String)
})
export type ConnectionsInfo = typeof ConnectionsInfo.Type
