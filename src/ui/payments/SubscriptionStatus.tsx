import { formatDate } from "../../domain/Dates.ts"
import { NO_ACTIVE_SUBSCRIPTION, paidUntilText } from "../../domain/Subscription.ts"
import type { SubscriptionStatus as Status } from "../../machines/payments/subscriptionMachine.ts"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { Panel } from "../shared/Panel.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
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
  <Panel title="Your subscription" busy={status === "loading"}>
    {status === "loading" ? (
      <LoadingPlaceholder label="Checking your subscription…" />
    ) : status === "failed" ? (
      <RetryNotice message={error} onRetry={onRetry} look="alert" partial />
    ) : status === "active" && expiresAt !== null ? (
      <>
        <p className={styles.statusValue}>{paidUntilText(expiresAt)}</p>
        {startedAt === null ? null : <p className={surfaces.muted}>Subscribed without a break since {formatDate(startedAt)}.</p>}
      </>
    ) : (
      <>
        <p className={styles.statusValue}>{NO_ACTIVE_SUBSCRIPTION}</p>
        <p className={surfaces.muted}>None is needed while the site is free.</p>
      </>
    )}
  </Panel>
)
