import type { ReactNode } from "react"
import * as styles from "./PageView.css.ts"
import { muted, pageTitle } from "./surfaces.css.ts"

interface PageViewProps {
  readonly title: string
  readonly lead?: ReactNode
  /** The page's own buttons, beside its title. */
  readonly actions?: ReactNode
  readonly width?: "reading" | "wide" | "full"
  /** While what the page shows is being loaded again. */
  readonly busy?: boolean
  readonly children?: ReactNode
}

/** A page of the authenticated area: its heading, an introduction, then its content. */
export const PageView = ({ title, lead, actions, width = "reading", busy = false, children }: PageViewProps) => (
  <section className={styles.page({ width })} aria-labelledby="page-title" aria-busy={busy || undefined}>
    <div className={styles.head}>
      <div className={styles.intro}>
        <h1 id="page-title" className={pageTitle}>
          {title}
        </h1>
        {lead === undefined ? null : <p className={muted}>{lead}</p>}
      </div>
      {actions === undefined ? null : <div className={styles.actions}>{actions}</div>}
    </div>
    {children}
  </section>
)
