import type { ReactNode } from "react"
import * as styles from "./PageView.css.ts"

interface PageViewProps {
  readonly title: string
  readonly lead?: string
  readonly children?: ReactNode
}

/** A page of the authenticated area: its heading, an introduction, then its content. */
export const PageView = ({ title, lead, children }: PageViewProps) => (
  <section className={styles.page} aria-labelledby="page-title">
    <h1 id="page-title" className={styles.title}>
      {title}
    </h1>
    {lead === undefined ? null : <p className={styles.lead}>{lead}</p>}
    {children}
  </section>
)
