import type { Kysely } from "kysely"
import { monthAfter, type PaidPeriod, type PaymentProvider } from "../../domain/Payment.ts"
import type { PaymentRow, Tables, Timestamp } from "../db/schema.ts"

// Enough values for one `in (...)` on either dialect, far below both limits.
const CHUNK = 500

const chunks = <T>(items: ReadonlyArray<T>): Array<ReadonlyArray<T>> =>
  Array.from({ length: Math.ceil(items.length / CHUNK) }, (_, i) => items.slice(i * CHUNK, (i + 1) * CHUNK))

/** An account's payments, newest first. */
export async function listPayments(db: Kysely<Tables>, userId: number): Promise<PaymentRow[]> {
  return db.selectFrom("payments").selectAll().where("user_id", "=", userId).orderBy("created_at", "desc").orderBy("id", "desc").execute()
}

/** The months an account has paid for; a payment from before periods were kept counts from its own date. */
export async function paidPeriods(db: Kysely<Tables>, userId: number): Promise<PaidPeriod[]> {
  const rows = await db.selectFrom("payments").select(["created_at", "period_start", "period_end"]).where("user_id", "=", userId).execute()
  return rows.map((row) => {
    const start = row.period_start ?? row.created_at
    return { start, end: row.period_end ?? monthAfter(start) }
  })
}

/** Account ids by (lower-cased) email, for those of `emails` that have an account. */
export async function accountIdsByEmail(db: Kysely<Tables>, emails: ReadonlyArray<string>): Promise<Map<string, number>> {
  const found = new Map<string, number>()
  for (const part of chunks([...new Set(emails)])) {
    const rows = await db.selectFrom("users").select(["id", "email"]).where("email", "in", part).execute()
    for (const row of rows) found.set(row.email, row.id)
  }
  return found
}

/** Which of these provider ids are recorded already. */
export async function recordedTransactionIds(db: Kysely<Tables>, ids: ReadonlyArray<string>): Promise<Set<string>> {
  const found = new Set<string>()
  for (const part of chunks([...new Set(ids)])) {
    const rows = await db.selectFrom("payments").select("paypal_transaction_id").where("paypal_transaction_id", "in", part).execute()
    for (const row of rows) if (row.paypal_transaction_id !== null) found.add(row.paypal_transaction_id)
  }
  return found
}

/**
 * Holds the account's row until the transaction ends, so two recordings for one account take
 * turns at reading its paid end and chaining a month onto it. A no-op update: PostgreSQL locks
 * the row, SQLite takes its write lock.
 */
export async function lockAccount(db: Kysely<Tables>, userId: number): Promise<void> {
  await db
    .updateTable("users")
    .set((eb) => ({ email: eb.ref("email") }))
    .where("id", "=", userId)
    .execute()
}

export interface NewPayment {
  readonly userId: number
  readonly transactionId: string | null
  readonly provider: PaymentProvider
  readonly price: number
  readonly fee: number
  readonly currency: string
  readonly paidAt: Timestamp
  readonly period: PaidPeriod
}

/** False when the provider id is recorded already: an id is stored once, whoever got there first. */
export async function insertPayment(db: Kysely<Tables>, payment: NewPayment): Promise<boolean> {
  const result = await db
    .insertInto("payments")
    .values({
      user_id: payment.userId,
      paypal_transaction_id: payment.transactionId,
      provider: payment.provider,
      price: payment.price,
      fee: payment.fee,
      currency: payment.currency,
      created_at: payment.paidAt,
      period_start: payment.period.start,
      period_end: payment.period.end
    })
    .onConflict((oc) => oc.column("paypal_transaction_id").doNothing())
    .executeTakeFirst()
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n
}
