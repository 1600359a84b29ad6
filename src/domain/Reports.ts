import * as Schema from "effect/Schema"
import { IsoDay } from "./Dates.ts"

/** The payment provider's fee per order, taken off for revenue excluding fees (SPEC §9). */
export const PAYMENT_PROVIDER_FEE = 0.65

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

/**
 * One player session (SPEC §3): when it began, the player, the address and the session's player
 * token; beyond SPEC, its id (to end it), the stream, the household network it is compared by,
 * the device and when it was last seen.
 */
export const ConnectionEntry = Schema.Struct({
  timestamp: Schema.String,
  app: Schema.String,
  ip: Schema.String,
  token: Schema.String,
  id: Schema.optionalKey(Schema.Number),
  stream: Schema.optionalKey(Schema.String),
  network: Schema.optionalKey(Schema.String),
  device: Schema.optionalKey(Schema.String),
  lastSeen: Schema.optionalKey(Schema.String),
  /**
   * Its account's row colour, worked out over all the account's connections: a page of the
   * table may hold only some of them.
   */
  severity: Schema.optionalKey(Schema.Literals(["strong", "light", "none"]))
})
export type ConnectionEntry = typeof ConnectionEntry.Type

/** How a stream has been doing for its viewers over the last hour, from their players' health beacons. */
export const StreamHealth = Schema.Struct({
  streamId: Schema.String,
  stream: Schema.String,
  viewers: Schema.Number,
  /** median ms from asking for the stream to its first picture; null when nobody started it */
  medianFirstFrameMs: Schema.NullOr(Schema.Number),
  /** the share of watching time spent stalled, 0 to 1; null when nobody watched */
  rebufferingRatio: Schema.NullOr(Schema.Number),
  errors: Schema.Number
})
export type StreamHealth = typeof StreamHealth.Type

/** A relayed channel's feed as the instance running it last saw it. */
export const FeedStatus = Schema.Struct({
  streamId: Schema.Number,
  stream: Schema.String,
  state: Schema.Literals(["idle", "starting", "live", "stalled", "failed"]),
  /** the upstream's last HTTP status; null before its first answer or when it cannot be reached */
  upstreamStatus: Schema.NullOr(Schema.Number),
  /** ms since the newest part or segment came in; null while idle or before the first */
  newestAgeMs: Schema.NullOr(Schema.Number),
  /** bits per second from the upstream over the last half minute */
  bitrate: Schema.Number,
  viewers: Schema.Number,
  restarts: Schema.Number,
  lastError: Schema.NullOr(Schema.String),
  /** who sends the media, where staff may know it (an ingest channel's encoder: "RTMP from 203.0.113.7") */
  source: Schema.optionalKey(Schema.NullOr(Schema.String)),
  /** ffmpeg's own figures, for the channels it packages: frames a second, speed (1 is real time), bits a second */
  encoder: Schema.optionalKey(
    Schema.NullOr(
      Schema.Struct({ fps: Schema.NullOr(Schema.Number), speed: Schema.NullOr(Schema.Number), bitrate: Schema.NullOr(Schema.Number) })
    )
  )
})
export type FeedStatus = typeof FeedStatus.Type

/** The 'Sessions Streaming' table shows this many rows at a time. */
export const CONNECTIONS_PAGE_SIZE = 50

/** Which page of the 'Sessions Streaming' table to send; without one, every connection comes. */
export const ConnectionsQuery = Schema.Struct({
  page: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[1-9][0-9]{0,5}$/)))
})
export type ConnectionsQuery = typeof ConnectionsQuery.Type

/** Where a page of the 'Sessions Streaming' table sits among all the live connections. */
export const ConnectionsPage = Schema.Struct({
  /** 1-based; the last page when the one asked for is past the end */
  number: Schema.Number,
  size: Schema.Number,
  /** live connections in all, on every page: the 'Total connections' counter */
  rows: Schema.Number
})
export type ConnectionsPage = typeof ConnectionsPage.Type

/**
 * SPEC §3's connections info, and beyond it each stream's quality over the last hour. Asked for
 * one page, `connections` holds only that page's rows and the counters and the 'Users With
 * multiple connections' table come worked out over all of them, so the answer grows with what the
 * staff page shows, not with the audience.
 */
export const ConnectionsInfo = Schema.Struct({
  connections: Schema.Record(Schema.String, Schema.Array(ConnectionEntry)),
  unknownIps: Schema.Array(Schema.String),
  streams: Schema.optionalKey(Schema.Array(StreamHealth)),
  /** every relayed channel's feed */
  feeds: Schema.optionalKey(Schema.Array(FeedStatus)),
  page: Schema.optionalKey(ConnectionsPage),
  /** accounts with a live connection: the 'Accounts streaming' counter */
  accounts: Schema.optionalKey(Schema.Number),
  multiple: Schema.optionalKey(Schema.Array(Schema.Struct({ email: Schema.String, connections: Schema.Number })))
})
export type ConnectionsInfo = typeof ConnectionsInfo.Type

/** The longest range the daily series covers; longer ranges still get their totals. */
export const MAX_SERIES_DAYS = 3660

/** One UTC day's figures of the reports' range, for the charts and the CSV download. */
export const ReportDay = Schema.Struct({
  day: IsoDay,
  orders: Schema.Number,
  revenue: Schema.Number,
  revenueExcludingFees: Schema.Number,
  newMembers: Schema.Number,
  newSubscriptions: Schema.Number
})
export type ReportDay = typeof ReportDay.Type

/** The figures a period adds up to. */
export const ReportTotals = Schema.Struct({
  orders: Schema.Number,
  revenue: Schema.Number,
  revenueExcludingFees: Schema.Number,
  newMembers: Schema.Number,
  newSubscriptions: Schema.Number
})
export type ReportTotals = typeof ReportTotals.Type

/** The range day by day, its totals, and those of the period of the same length just before it. */
export const ReportSeries = Schema.Struct({
  days: Schema.Array(ReportDay),
  totals: ReportTotals,
  // plain text: the period before a range that starts in year 100 reaches back before the picker's years
  previous: Schema.Struct({ start: Schema.String, end: Schema.String, totals: ReportTotals })
})
export type ReportSeries = typeof ReportSeries.Type

const cents = (amount: number): number => Math.round(amount * 100) / 100

/** Revenue less the provider's flat fee per PayPal order (SPEC §9), to the cent. */
export const revenueExcludingFees = (revenue: number, paypalOrders: number): number => cents(revenue - PAYMENT_PROVIDER_FEE * paypalOrders)

/** The change from `before` to `now` as a fraction (0.25 = 25 % up); null when there was nothing before. */
export const changeAgainst = (now: number, before: number): number | null =>
  before === 0 ? (now === 0 ? 0 : null) : (now - before) / Math.abs(before)

/** The range's days as CSV, one row a day, for a spreadsheet. */
export const reportCsv = (days: ReadonlyArray<ReportDay>): string =>
  `${[
    "day,orders,revenue,revenue_excluding_fees,new_members,new_subscriptions",
    ...days.map((d) =>
      [d.day, d.orders, d.revenue.toFixed(2), d.revenueExcludingFees.toFixed(2), d.newMembers, d.newSubscriptions].join(",")
    )
  ].join("\r\n")}\r\n`
