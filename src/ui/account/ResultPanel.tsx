import type { ReactNode } from "react"
import { button } from "../shared/controls.css.ts"
import { Icon, type IconName } from "../shared/Icon.tsx"
import * as status from "../shared/StatusView.css.ts"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./AccountForm.css.ts"

export type ResultTone = "success" | "error" | "info"

const icons: Record<ResultTone, IconName> = { success: "check", error: "exclamation", info: "mail" }

interface ResultPanelProps {
  readonly title: string
  readonly tone: ResultTone
  readonly children?: ReactNode
  /** Links or buttons under the text, full width. */
  readonly actions?: ReactNode
}

/**
 * Where a public account page lands: a heading and what happened. Failures are alerts so they are
 * read out as they replace the form; good news is a polite status.
 */
export const ResultPanel = ({ title, tone, children, actions }: ResultPanelProps) => (
  <section className={styles.result} role={tone === "error" ? "alert" : "status"} aria-labelledby="result-title">
    <span className={styles.badge[tone]}>
      <Icon name={icons[tone]} size={28} />
    </span>
    <h1 id="result-title" className={surfaces.pageTitle}>
      {title}
    </h1>
    {children}
    {actions === undefined ? null : <div className={styles.actions}>{actions}</div>}
  </section>
)

/** While a link's token or an invite is being checked. */
export const PendingPanel = ({ title }: { readonly title: string }) => (
  <section className={styles.result} role="status" aria-busy="true" aria-labelledby="result-title">
    <div className={status.spinner} aria-hidden="true" />
    <h1 id="result-title" className={surfaces.pageTitle}>
      {title}
    </h1>
  </section>
)

/**
 * When a link's check went unanswered (the network, a server error, a wait asked for): nothing is
 * known to be wrong with the link, so the page offers to ask again, and a way on besides.
 */
export const UnreachablePanel = ({
  detail,
  onRetry,
  other
}: {
  readonly detail: string | null
  readonly onRetry: () => void
  readonly other: ReactNode
}) => (
  <ResultPanel
    title="Something went wrong"
    tone="error"
    actions={
      <>
        <button type="button" className={button({ tone: "primary", block: true })} onClick={onRetry}>
          Try again
        </button>
        {other}
      </>
    }
  >
    <p className={styles.message}>{detail}</p>
  </ResultPanel>
)
