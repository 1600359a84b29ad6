import * as Schema from "effect/Schema"
import { formatPrice } from "./Invitation.ts"

/** A payment as its payer sees it (SPEC §3), newest first in the list. */
export class Transaction extends Schema.Class<Transaction>("Transaction")({
  /** Its number among the account's own payments, in the order they were made: 1 is the first. */
  id: Schema.Number,
  /** The provider's id of the payment; null for one recorded by hand without one. */
  paypal_transaction_id: Schema.NullOr(Schema.String),
  /** When it was paid, ISO-8601 UTC. */
  created_at: Schema.String,
  /** The gross, a decimal number of `currency` units: 5.5 is 5.50. */
  price: Schema.Number,
  /** ISO 4217, e.g. USD, EUR, JPY. */
  currency: Schema.String
}) {}

/** The payment method column always reads PayPal (SPEC §2). */
export const PAYMENT_METHOD = "PayPal"
export const NO_TRANSACTIONS = "No Transactions"

/**
 * An amount in its currency: dollars as every page writes them ("$5", "$4.75"), others with their
 * own sign and decimals ("€12.50", "¥1,500"), and a fraction of a bitcoin in full ("BTC 0.00012").
 */
export const formatAmount = (amount: number, currency: string): string => {
  if (currency === "USD") return formatPrice(amount)
  try {
    return new Intl.NumberFormat("en-US", { style: "currency", currency, maximumFractionDigits: 8 }).format(amount)
  } catch {
    return `${amount} ${currency}`
  }
}
