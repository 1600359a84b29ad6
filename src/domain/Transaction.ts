import { Schema } from "effect"

export class Transaction extends Schema.Class<Transaction>("Transaction")({
  id: Schema.Number,
  paypal_transaction_id: Schema.String,
  created_at: Schema.String,
  price: Schema.Number
}) {}

/** The payment method column always reads PayPal (SPEC §2). */
export const PAYMENT_METHOD = "PayPal"
export const NO_TRANSACTIONS = "No Transactions"
