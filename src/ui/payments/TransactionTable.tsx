import { formatDate } from "../../domain/Dates.ts"
import { formatAmount, PAYMENT_METHOD, type Transaction } from "../../domain/Transaction.ts"
import { type Column, DataTable } from "../shared/DataTable.tsx"

const COLUMNS: ReadonlyArray<Column<Transaction>> = [
  { header: "ID", cell: (transaction) => transaction.id },
  { header: "PayPal transaction ID", cell: (transaction) => transaction.paypal_transaction_id, kind: "code", wide: true },
  {
    header: "Date",
    cell: (transaction) => <time dateTime={transaction.created_at}>{formatDate(transaction.created_at)}</time>,
    kind: "nowrap"
  },
  { header: "Price", cell: (transaction) => formatAmount(transaction.price, transaction.currency), kind: "number" },
  { header: "Payment method", cell: () => PAYMENT_METHOD }
]

/** SPEC §2's table of transactions: id, PayPal transaction id, date (en-GB), price and the payment method. */
export const TransactionTable = ({ transactions }: { readonly transactions: ReadonlyArray<Transaction> }) => (
  <DataTable caption="Your payments, newest first" columns={COLUMNS} rows={transactions} rowKey={(transaction) => transaction.id} />
)
