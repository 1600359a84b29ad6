import { formatDate } from "../../domain/Dates.ts"
import { NO_ACTIVE_SUBSCRIPTION, paidUntilText } from "../../domain/Subscription.ts"
import type { SubscriptionStatus as Status } from "../../machines/payments/subscriptionMachine.ts"
import { button, visuallyHidden } from "../shared/controls.css.ts"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./PaymentsPages.css.ts"

interface SubscriptionStatusProps {
  readonly status: Status
  readonly startedAt: string | null
  readonly expiresAt: string | null
  readonly error: string | null
  readonly onRetry: () => void
}

/** The viewer's paid months: until when, since when, or that there are none. */
export const SubscriptionStatus = ({ status, startedAt, expiresAt, error, onRetry }: SubscriptionStatusProps) => (
  <section className={surfaces.panel} aria-labelledby="subscription-status-title" aria-busy={status === "loading" || undefined}>
    <h2 id="subscription-status-title" className={surfaces.panelTitle}>
      Your subscription
    </h2>
    {status === "loading" ? (
      <div role="status">
        <span className={visuallyHidden}>Checking your subscription…</span>
        <div className={styles.skeleton} aria-hidden="true" />
      </div>
    ) : status === "failed" ? (
      <div role="alert" className={styles.status}>
        <p className={styles.failure}>{error}</p>
        <button type="button" className={button({ tone: "secondary" })} onClick={onRetry}>
          Try again
        </button>
      </div>
    ) : status === "active" && expiresAt !== null ? (
      <>
        <p className={styles.statusValue}>{paidUntilText(expiresAt)}</p>
        {startedAt === null ? null : <p className={styles.muted}>Subscribed without a break since {formatDate(startedAt)}.</p>}
      </>
    ) : (
      <>
        <p className={styles.statusValue}>{NO_ACTIVE_SUBSCRIPTION}</p>
        <p className={styles.muted}>None is needed while the site is free.</p>
      </>
    )}
  </section>
)
