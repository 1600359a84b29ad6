import type { Kysely } from "kysely"
import { type PaidPeriod, type PaymentProvider, paidUntil, periodFor } from "../../domain/Payment.ts"
import { inTransaction } from "../db/database.ts"
import type { Tables } from "../db/schema.ts"
import { accountIdsByEmail, insertPayment, lockAccount, paidPeriods, recordedTransactionIds } from "./paymentsRepo.ts"

/** A payment to record for the account with `email`. */
export interface PaymentToRecord {
  readonly email: string
  readonly transactionId: string | null
  readonly provider: PaymentProvider
  readonly price: number
  readonly fee: number
  readonly currency: string
  readonly paidAt: string
}

export type Recorded =
  | { readonly outcome: "recorded"; readonly period: PaidPeriod }
  | { readonly outcome: "present" }
  | { readonly outcome: "unknown payer" }

/**
 * Records one payment for an account: the account's paid end is read and the new month chained
 * onto it while the account is held, so concurrent recordings never buy overlapping months.
 */
export async function recordPayment(db: Kysely<Tables>, userId: number, payment: PaymentToRecord): Promise<Recorded> {
  return inTransaction(db, async (trx) => {
    await lockAccount(trx, userId)
    const period = periodFor(payment.paidAt, paidUntil(await paidPeriods(trx, userId)))
    const inserted = await insertPayment(trx, { ...payment, userId, period })
    return inserted ? { outcome: "recorded", period } : { outcome: "present" }
  })
}

export interface RecordedAll {
  readonly recorded: number
  readonly present: number
  /** Payments whose payer has no account, by email. */
  readonly unknownPayers: ReadonlyMap<string, number>
}

/**
 * Records many payments in one transaction, oldest first so each account's months chain in the
 * order they were paid. A provider id recorded before, or twice in the batch, counts as present.
 */
export async function recordPayments(db: Kysely<Tables>, payments: ReadonlyArray<PaymentToRecord>): Promise<RecordedAll> {
  const ordered = [...payments].sort((a, b) => Date.parse(a.paidAt) - Date.parse(b.paidAt))
  return inTransaction(db, async (trx) => {
    const accounts = await accountIdsByEmail(
      trx,
      ordered.map((payment) => payment.email)
    )
    const known = await recordedTransactionIds(
      trx,
      ordered.flatMap((payment) => (payment.transactionId === null ? [] : [payment.transactionId]))
    )
    let recorded = 0
    let present = 0
    const unknownPayers = new Map<string, number>()
    for (const payment of ordered) {
      const userId = accounts.get(payment.email)
      if (payment.transactionId !== null && known.has(payment.transactionId)) present += 1
      else if (userId === undefined) unknownPayers.set(payment.email, (unknownPayers.get(payment.email) ?? 0) + 1)
      else if ((await recordPayment(trx, userId, payment)).outcome === "recorded") recorded += 1
      else present += 1
      if (payment.transactionId !== null) known.add(payment.transactionId)
    }
    return { recorded, present, unknownPayers }
  })
}
