import { useActorRef, useSelector } from "@xstate/react"
import { NO_TRANSACTIONS } from "../../domain/Transaction.ts"
import { selectError, selectStatus, selectTransactions } from "../../machines/payments/transactionsMachine.ts"
import { button, visuallyHidden } from "../shared/controls.css.ts"
import { PageView } from "../shared/PageView.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./PaymentsPages.css.ts"
import { TransactionTable } from "./TransactionTable.tsx"

const SKELETONS = [0, 1, 2]

/** /transactions (SPEC §2): the viewer's payments, or 'No Transactions'. */
export const TransactionsView = () => {
  const services = useServices()
  const transactions = useActorRef(services.transactions, services.actorOptions)
  const status = useSelector(transactions, selectStatus)
  const error = useSelector(transactions, selectError)
  const rows = useSelector(transactions, selectTransactions)

  return (
    <PageView title="Transactions" lead="Every payment you have made for your subscription.">
      {status === "loading" ? (
        <div role="status" className={styles.skeletons}>
          <span className={visuallyHidden}>Loading your transactions…</span>
          {SKELETONS.map((index) => (
            <div key={index} className={styles.skeleton} aria-hidden="true" />
          ))}
        </div>
      ) : status === "failed" ? (
        <div className={surfaces.notice} role="alert">
          <p className={styles.text}>{error}</p>
          <button type="button" className={button({ tone: "primary" })} onClick={() => transactions.send({ type: "transactions.retry" })}>
            Try again
          </button>
        </div>
      ) : status === "empty" ? (
        <div className={surfaces.notice}>
          <p className={styles.emptyTitle}>{NO_TRANSACTIONS}</p>
          <p className={styles.muted}>Payments you make show up here with their PayPal transaction ID.</p>
        </div>
      ) : (
        <TransactionTable transactions={rows} />
      )}
    </PageView>
  )
}
