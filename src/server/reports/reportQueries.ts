import { type Kysely, sql } from "kysely"
import type { Tables } from "../db/schema.ts"

/**
 * A span of instants as the reports read it, bounds compared as text: timestamps are stored as
 * ISO 8601 in UTC, so a day `D` holds every stored instant from `D` (inclusive) to `D + "T24"`
 * (exclusive), which sorts after the day's last instant and before the next day's first.
 */
export interface Span {
  readonly from: string
  readonly to: string
}

/** The span of whole UTC days from `start` to `end`, both included. */
export const daySpan = (start: string, end: string): Span => ({ from: start, to: `${end}T24` })

export interface PaymentFigures {
  readonly orders: number
  readonly revenue: number
  readonly ordersPaypal: number
  readonly ordersBtc: number
  readonly revenuePaypal: number
  readonly revenueBtc: number
}

// PostgreSQL answers count and integer sums as bigint text; both dialects agree once they are numbers.
const num = (value: unknown): number => Number(value ?? 0)

const paymentSums = [
  sql<string>`count(*)`.as("orders"),
  sql<number>`coalesce(sum(price), 0)`.as("revenue"),
  sql<string>`coalesce(sum(case when provider = 'paypal' then 1 else 0 end), 0)`.as("ordersPaypal"),
  sql<string>`coalesce(sum(case when provider = 'btc' then 1 else 0 end), 0)`.as("ordersBtc"),
  sql<number>`coalesce(sum(case when provider = 'paypal' then price else 0 end), 0)`.as("revenuePaypal"),
  sql<number>`coalesce(sum(case when provider = 'btc' then price else 0 end), 0)`.as("revenueBtc")
] as const

const figures = (row: Record<string, unknown> | undefined): PaymentFigures => ({
  orders: num(row?.orders),
  revenue: num(row?.revenue),
  ordersPaypal: num(row?.ordersPaypal),
  ordersBtc: num(row?.ordersBtc),
  revenuePaypal: num(row?.revenuePaypal),
  revenueBtc: num(row?.revenueBtc)
})

/** Orders and revenue, split by provider, of the payments made in `span` (all of them without one). */
export async function paymentFigures(db: Kysely<Tables>, span?: Span): Promise<PaymentFigures> {
  const row = await db
    .selectFrom("payments")
    .select(paymentSums)
    .$if(span !== undefined, (q) => q.where("created_at", ">=", span?.from ?? "").where("created_at", "<", span?.to ?? ""))
    .executeTakeFirst()
  return figures(row)
}

/** Accounts whose paid month covers `at`. */
export async function currentSubscriptions(db: Kysely<Tables>, at: string): Promise<number> {
  const row = await db
    .selectFrom("payments")
    .select(sql<string>`count(distinct user_id)`.as("count"))
    .where("period_end", ">", at)
    .where("period_start", "<=", at)
    .executeTakeFirst()
  return num(row?.count)
}

/** Accounts that ever paid (whose account still exists). */
export async function everSubscribed(db: Kysely<Tables>): Promise<number> {
  const row = await db
    .selectFrom("payments")
    .select(sql<string>`count(distinct user_id)`.as("count"))
    .where("user_id", "is not", null)
    .executeTakeFirst()
  return num(row?.count)
}

/** Verified accounts, all of them or those verified in `span`. */
export async function members(db: Kysely<Tables>, span?: Span): Promise<number> {
  const row = await db
    .selectFrom("users")
    .select(sql<string>`count(*)`.as("count"))
    .where("email_verified_at", "is not", null)
    .$if(span !== undefined, (q) => q.where("email_verified_at", ">=", span?.from ?? "").where("email_verified_at", "<", span?.to ?? ""))
    .executeTakeFirst()
  return num(row?.count)
}

/** Each account's first payment; read through the (user_id, created_at) index, one entry per payment. */
const firstPayments = (db: Kysely<Tables>) =>
  db.selectFrom("payments").select(sql<string>`min(created_at)`.as("first")).where("user_id", "is not", null).groupBy("user_id")

/** Accounts whose first payment falls in `span`. */
export async function newSubscriptions(db: Kysely<Tables>, span: Span): Promise<number> {
  const row = await db
    .selectFrom(firstPayments(db).as("f"))
    .select(sql<string>`count(*)`.as("count"))
    .where("f.first", ">=", span.from)
    .where("f.first", "<", span.to)
    .executeTakeFirst()
  return num(row?.count)
}

export interface DayFigures {
  readonly orders: number
  readonly revenue: number
  readonly ordersPaypal: number
  readonly newMembers: number
  readonly newSubscriptions: number
}

/** The span's figures per UTC day (YYYY-MM-DD); days with nothing are absent. */
export async function dailyFigures(db: Kysely<Tables>, span: Span): Promise<Map<string, DayFigures>> {
  const day = (column: string) => sql<string>`substr(${sql.ref(column)}, 1, 10)`
  const [payments, verified, first] = await Promise.all([
    db
      .selectFrom("payments")
      .select([day("created_at").as("day"), ...paymentSums])
      .where("created_at", ">=", span.from)
      .where("created_at", "<", span.to)
      .groupBy(day("created_at"))
      .execute(),
    db
      .selectFrom("users")
      .select([day("email_verified_at").as("day"), sql<string>`count(*)`.as("count")])
      .where("email_verified_at", ">=", span.from)
      .where("email_verified_at", "<", span.to)
      .groupBy(day("email_verified_at"))
      .execute(),
    db
      .selectFrom(firstPayments(db).as("f"))
      .select([day("f.first").as("day"), sql<string>`count(*)`.as("count")])
      .where("f.first", ">=", span.from)
      .where("f.first", "<", span.to)
      .groupBy(day("f.first"))
      .execute()
  ])
  const days = new Map<string, DayFigures>()
  const at = (key: string): DayFigures => days.get(key) ?? { orders: 0, revenue: 0, ordersPaypal: 0, newMembers: 0, newSubscriptions: 0 }
  for (const row of payments) {
    const sums = figures(row)
    days.set(row.day, { ...at(row.day), orders: sums.orders, revenue: sums.revenue, ordersPaypal: sums.ordersPaypal })
  }
  for (const row of verified) days.set(row.day, { ...at(row.day), newMembers: num(row.count) })
  for (const row of first) days.set(row.day, { ...at(row.day), newSubscriptions: num(row.count) })
  return days
}
