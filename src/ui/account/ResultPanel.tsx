import type { ReactNode } from "react"
import * as status from "../shared/StatusView.css.ts"
import * as page from "../shell/PublicLayout.css.ts"
import * as styles from "./AccountForm.css.ts"

export type ResultTone = "success" | "error" | "info"

const glyphs: Record<ResultTone, ReactNode> = {
  success: <path d="m5 12.5 4.5 4.5L19 7.5" />,
  error: (
    <>
      <path d="M12 5.5v9" />
      <path d="M12 19h.01" />
    </>
  ),
  info: (
    <>
      <rect x="3" y="5" width="18" height="14" rx="2" />
      <path d="m3 7 9 6 9-6" />
    </>
  )
}

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
    <span className={styles.badge[tone]} aria-hidden="true">
      <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
        {glyphs[tone]}
      </svg>
    </span>
    <h1 id="result-title" className={page.title}>{title}</h1>
    {children}
    {actions === undefined ? null : <div className={styles.actions}>{actions}</div>}
  </section>
)

/** While a link's token or an invite is being checked. */
export const PendingPanel = ({ title }: { readonly title: string }) => (
  <section className={styles.result} role="status" aria-busy="true" aria-labelledby="result-title">
    <div className={status.spinner} aria-hidden="true" />
    <h1 id="result-title" className={page.title}>{title}</h1>
  </section>
)
