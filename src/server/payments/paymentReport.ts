import type { PaidPeriod, PaymentProvider } from "../../domain/Payment.ts"
import { formatAmount } from "../../domain/Transaction.ts"
import { plural } from "../cli/command.ts"
import type { RecordedAll } from "./recordPayments.ts"

/** "2026-11-23 14:05 UTC": operators read it anywhere, so in UTC and unambiguous. */
export const utcMinute = (iso: string): string => `${iso.slice(0, 16).replace("T", " ")} UTC`

/**
 * What an import did, for the operator: the counts first, then each reason rows were skipped for
 * with its count (a status, or a completed row's type), then payers without an account.
 */
export function describeImport(file: string, result: RecordedAll, skipped: ReadonlyMap<string, number>): string {
  const skippedCount = [...skipped.values()].reduce((sum, count) => sum + count, 0)
  const unknownCount = [...result.unknownPayers.values()].reduce((sum, count) => sum + count, 0)
  const lines = [
    `${file}: imported ${result.recorded}, already present ${result.present}, ` +
      `skipped ${plural(skippedCount, "row")}, ${plural(unknownCount, "payment")} from unknown payers`
  ]
  if (skippedCount > 0) {
    lines.push(`Skipped rows: ${[...skipped].map(([reason, count]) => `${count} ${reason}`).join(", ")}`)
  }
  if (unknownCount > 0) {
    lines.push("Unknown payers, not imported (create their accounts or correct their emails, then import the file again):")
    for (const [email, count] of [...result.unknownPayers].sort(([a], [b]) => a.localeCompare(b)))
      lines.push(`  ${email}: ${plural(count, "payment")}`)
  }
  return lines.join("\n")
}

export interface RecordedPayment {
  readonly email: string
  readonly amount: number
  readonly currency: string
  readonly provider: PaymentProvider
  readonly id: string | undefined
  readonly period: PaidPeriod
}

export const describeRecorded = ({ email, amount, currency, provider, id, period }: RecordedPayment): string =>
  `Recorded ${formatAmount(amount, currency)} from ${email} (${provider}${id === undefined ? "" : `, id ${id}`}): ` +
  `paid from ${utcMinute(period.start)} until ${utcMinute(period.end)}.`
