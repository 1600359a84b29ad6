import { NO_TRANSACTIONS } from "../../domain/Transaction.ts"
import { selectError, selectStatus, selectTransactions, transactionsMachine } from "../../machines/payments/transactionsMachine.ts"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { PageView } from "../shared/PageView.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./PaymentsPages.css.ts"
import { TransactionTable } from "./TransactionTable.tsx"

/** /transactions (SPEC §2): the viewer's payments, or 'No Transactions'. */
export const TransactionsView = () => {
  const transactions = usePageActor(transactionsMachine)
  const { status, error, rows } = useSelectors(transactions, { status: selectStatus, error: selectError, rows: selectTransactions })

  return (
    <PageView title="Transactions" lead="Every payment you have made for your subscription.">
      {status === "loading" ? (
        <LoadingPlaceholder label="Loading your transactions…" count={3} />
      ) : status === "failed" ? (
        <RetryNotice message={error} onRetry={() => transactions.send({ type: "transactions.retry" })} />
      ) : status === "empty" ? (
        <div className={surfaces.notice}>
          <p className={styles.emptyTitle}>{NO_TRANSACTIONS}</p>
          <p className={surfaces.muted}>Payments you make show up here with their PayPal transaction ID.</p>
        </div>
      ) : (
        <TransactionTable transactions={rows} />
      )}
    </PageView>
  )
}
