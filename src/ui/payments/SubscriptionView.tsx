import { useSelector } from "@xstate/react"
import { Link } from "react-router-dom"
import { PRICE_NOTE_PER_MONTH } from "../../domain/Subscription.ts"
import {
  selectError,
  selectIsReloading,
  selectReloadError,
  selectReloaded,
  selectStatus,
  selectSubscription,
  subscriptionMachine
} from "../../machines/payments/subscriptionMachine.ts"
import { button } from "../shared/controls.css.ts"
import { PageView } from "../shared/PageView.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./PaymentsPages.css.ts"
import { SubscriptionStatus } from "./SubscriptionStatus.tsx"

const reloadedText = (reloaded: { readonly total: number; readonly watchable: number }): string =>
  reloaded.total === 0
    ? "Streams reloaded: there are no streams yet."
    : `Streams reloaded: ${reloaded.watchable} of ${reloaded.total} ready to watch.`

/** /subscription (SPEC §1, §2): the notice that the site is free, the viewer's paid months, and reloading the streams. */
export const SubscriptionView = () => {
  const subscription = usePageActor(subscriptionMachine)
  const status = useSelector(subscription, selectStatus)
  const { startedAt, expiresAt } = useSelector(subscription, selectSubscription)
  const { error, reloading, reloaded, reloadError } = useSelectors(subscription, {
    error: selectError,
    reloading: selectIsReloading,
    reloaded: selectReloaded,
    reloadError: selectReloadError
  })

  return (
    <PageView title="Subscription">
      <div className={surfaces.panel()} role="note">
        <p className={styles.text}>The site is currently free to use.</p>
        <p className={styles.text}>
          If our servers need upgrading, a subscription of about ${PRICE_NOTE_PER_MONTH} a month may be charged in the future.
        </p>
      </div>

      <SubscriptionStatus
        status={status}
        startedAt={startedAt}
        expiresAt={expiresAt}
        error={error}
        onRetry={() => subscription.send({ type: "subscription.retry" })}
      />

      <div className={styles.actions}>
        {/* aria-disabled, not disabled: the button keeps the focus while the streams load */}
        <button
          type="button"
          className={button({ tone: "primary" })}
          aria-disabled={reloading || undefined}
          aria-describedby="reload-result"
          onClick={() => subscription.send({ type: "streams.reload" })}
        >
          {reloading ? "Reloading streams…" : "Reload streams"}
        </button>
        <Link className={button({ tone: "secondary" })} to="/transactions">
          Your transactions
        </Link>
        <Link className={button({ tone: "secondary" })} to="/">
          Back to streams
        </Link>
      </div>
      <p id="reload-result" role="status" className={reloadError === null ? surfaces.muted : styles.failure}>
        {reloadError ?? (reloaded === null ? "" : reloadedText(reloaded))}
      </p>
    </PageView>
  )
}
