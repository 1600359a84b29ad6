import { Link } from "react-router-dom"
import { PRICE_NOTE_PER_MONTH } from "../../domain/Subscription.ts"
import { button } from "../shared/controls.css.ts"
import * as styles from "../shared/PageView.css.ts"
import { PageView } from "../shared/PageView.tsx"

/** SPEC §1: for now the page only says the site is free. */
export const SubscriptionView = () => (
  <PageView title="Subscription">
    <div className={styles.panel} role="note">
      <p className={styles.text}>The site is currently free to use.</p>
      <p className={styles.text}>
        If our servers need upgrading, a subscription of about ${PRICE_NOTE_PER_MONTH} a month may be charged in the future.
      </p>
      <div className={styles.actions}>
        <Link className={button({ tone: "primary" })} to="/">Back to streams</Link>
      </div>
    </div>
  </PageView>
)
