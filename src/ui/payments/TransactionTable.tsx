// biome-ignore-all lint/a11y/noRedundantRoles: below the small breakpoint the table's parts are laid out as blocks, which drops their table semantics unless the roles are set
import type { ReactNode } from "react"
import { formatDate } from "../../domain/Dates.ts"
import { formatAmount, PAYMENT_METHOD, type Transaction } from "../../domain/Transaction.ts"
import * as styles from "./PaymentsPages.css.ts"

const Cell = ({ className, label, children }: { readonly className: string; readonly label: string; readonly children: ReactNode }) => (
  <td role="cell" className={className}>
    <span className={styles.cellLabel} aria-hidden="true">
      {label}
    </span>
    <span>{children}</span>
  </td>
)

/** SPEC §2's table of transactions: id, PayPal transaction id, date (en-GB), price and the payment method. */
export const TransactionTable = ({ transactions }: { readonly transactions: ReadonlyArray<Transaction> }) => (
  <div className={styles.tableFrame}>
    <table role="table" className={styles.table}>
      <caption className={styles.caption}>Your payments, newest first</caption>
      <thead role="rowgroup" className={styles.head}>
        <tr role="row">
          <th role="columnheader" scope="col" className={styles.headCell}>
            ID
          </th>
          <th role="columnheader" scope="col" className={styles.headCell}>
            PayPal transaction ID
          </th>
          <th role="columnheader" scope="col" className={styles.headCell}>
            Date
          </th>
          <th role="columnheader" scope="col" className={styles.numberHead}>
            Price
          </th>
          <th role="columnheader" scope="col" className={styles.headCell}>
            Payment method
          </th>
        </tr>
      </thead>
      <tbody role="rowgroup" className={styles.body}>
        {transactions.map((transaction) => (
          <tr role="row" key={transaction.id} className={styles.row}>
            <Cell className={styles.idCell} label="ID">
              {transaction.id}
            </Cell>
            <Cell className={styles.paypalCell} label="PayPal transaction ID">
              {transaction.paypal_transaction_id ?? "---"}
            </Cell>
            <Cell className={styles.dateCell} label="Date">
              <time dateTime={transaction.created_at}>{formatDate(transaction.created_at)}</time>
            </Cell>
            <Cell className={styles.priceCell} label="Price">
              {formatAmount(transaction.price, transaction.currency)}
            </Cell>
            <Cell className={styles.methodCell} label="Payment method">
              {PAYMENT_METHOD}
            </Cell>
          </tr>
        ))}
      </tbody>
    </table>
  </div>
)
