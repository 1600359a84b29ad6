import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import type { adminReportsMachine } from "../../machines/reports/adminReportsMachine.ts"
import { selectUsersPager } from "../../machines/reports/usersPager.ts"
import { button } from "../shared/controls.css.ts"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./AdminReports.css.ts"

const count = new Intl.NumberFormat("en-US")

/** Which rows of the 'Sessions Streaming' table are shown, and the way to the others. */
export const SessionsPager = ({ actor }: { readonly actor: ActorRefFrom<typeof adminReportsMachine> }) => {
  const pager = useSelector(actor, selectUsersPager)
  if (pager === null) return null
  const { first, last, rows, pages, asked, turning, canGoBack, canGoOn } = pager
  const turns = [
    { label: "First", page: 1, enabled: canGoBack },
    { label: "Previous", page: asked - 1, enabled: canGoBack },
    { label: "Next", page: asked + 1, enabled: canGoOn },
    { label: "Last", page: pages, enabled: canGoOn }
  ]
  return (
    <nav className={styles.pager} aria-label="Sessions Streaming pages">
      <p className={styles.pagerText} aria-live="polite">
        Rows {count.format(first)}–{count.format(last)} of {count.format(rows)}
        {turning ? <span className={surfaces.muted}> · loading page {count.format(asked)}…</span> : null}
      </p>
      <div className={styles.toolbar}>
        {turns.map((turn) => (
          <button
            key={turn.label}
            type="button"
            className={button({ tone: "secondary" })}
            disabled={!turn.enabled}
            onClick={() => actor.send({ type: "users.page", page: turn.page })}
          >
            {turn.label}
          </button>
        ))}
      </div>
    </nav>
  )
}
