import type { ReactNode } from "react"
import * as styles from "./StatusView.css.ts"
import { pageTitle } from "./surfaces.css.ts"

interface StatusViewProps {
  readonly title: string
  readonly children?: ReactNode
  /** `screen` fills the viewport (before the app shell exists); `inline` sits inside a page. */
  readonly placement?: "screen" | "inline"
  readonly busy?: boolean
  readonly role?: "alert" | "status"
}

/** A centred card for loading, failure, maintenance and not-found states. */
export const StatusView = ({ title, children, placement = "inline", busy = false, role }: StatusViewProps) => {
  // inside the app shell the page already sits in a <main>
  const Frame = placement === "screen" ? "main" : "div"
  return (
    <Frame className={placement === "screen" ? styles.screen : styles.inline} aria-busy={busy || undefined}>
      <section className={styles.card} role={role} aria-labelledby="status-title">
        {busy ? <div className={styles.spinner} aria-hidden="true" /> : null}
        <h1 id="status-title" className={pageTitle}>
          {title}
        </h1>
        {children}
      </section>
    </Frame>
  )
}
