import { formatDate } from "../../domain/Dates.ts"
import { calendarFeedMachine, selectFeed, selectFeedBusy, selectFeedStatus } from "../../machines/reminders/calendarFeedMachine.ts"
import { button, fieldLabel, readOnlyInput, textInput } from "../shared/controls.css.ts"
import { Icon } from "../shared/Icon.tsx"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { Panel } from "../shared/Panel.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./Reminders.css.ts"

/** The private calendar feed: made, its address shown once to copy, replaced, or turned off. */
export const CalendarFeedPanel = () => {
  const feed = usePageActor(calendarFeedMachine)
  const { status, busy, context } = useSelectors(feed, { status: selectFeedStatus, busy: selectFeedBusy, context: selectFeed })
  const make = () => {
    if (!busy) feed.send({ type: "feed.create" })
  }
  return (
    <Panel
      title="Calendar feed"
      intro="A private address for your phone's or computer's calendar app: it lists the programmes you set reminders of, with an alert at the same time as the email."
      busy={status === "loading"}
    >
      {status === "loading" ? (
        <LoadingPlaceholder label="Loading your calendar feed…" count={1} height="48px" />
      ) : status === "failed" ? (
        <RetryNotice message={context.error} onRetry={() => feed.send({ type: "feed.retry" })} />
      ) : status === "none" ? (
        <div className={styles.feedRow}>
          <p className={surfaces.muted}>You have no calendar feed.</p>
          <button type="button" className={button({ tone: "primary" })} aria-disabled={busy || undefined} onClick={make}>
            {busy ? "Making…" : "Make a calendar feed"}
          </button>
        </div>
      ) : (
        <>
          {context.url === null ? (
            <p className={surfaces.muted}>
              Your feed was made on {formatDate(context.createdAt ?? "")}. Its address was shown then, and is kept only as a fingerprint, so
              it cannot be shown again: make a new one to see it (the old one stops working).
            </p>
          ) : (
            <div className={styles.feedRow}>
              <label className={fieldLabel} htmlFor="calendar-feed-url">
                Feed address (copy it now: it is shown only this once)
              </label>
              <input
                id="calendar-feed-url"
                className={`${textInput} ${readOnlyInput} ${styles.feedUrl}`}
                value={context.url}
                readOnly
                onFocus={(event) => event.currentTarget.select()}
              />
              <button type="button" className={button({ tone: "primary" })} onClick={() => feed.send({ type: "feed.copy" })}>
                <Icon name="copy" size={16} />
                Copy address
              </button>
            </div>
          )}
          <div className={styles.feedRow}>
            <button type="button" className={button({ tone: "secondary" })} aria-disabled={busy || undefined} onClick={make}>
              Make a new address
            </button>
            <button
              type="button"
              className={button({ tone: "secondary" })}
              aria-disabled={busy || undefined}
              onClick={() => {
                if (!busy) feed.send({ type: "feed.revoke" })
              }}
            >
              Turn the feed off
            </button>
          </div>
        </>
      )}
    </Panel>
  )
}
