import { type ReactNode, useId } from "react"
import * as surfaces from "./surfaces.css.ts"

interface PanelProps {
  /** Its heading, which also names the panel as a region. */
  readonly title: string
  /** A line under the heading that says what the panel is for. */
  readonly intro?: ReactNode
  readonly spacing?: "roomy" | "regular" | "compact"
  /** `split`: its heading and its one action side by side where there is room. */
  readonly layout?: "stack" | "split"
  /** While what it shows is being loaded again. */
  readonly busy?: boolean
  readonly children?: ReactNode
}

/** A titled section of a page, drawn as a panel. */
export const Panel = ({ title, intro, spacing = "regular", layout = "stack", busy = false, children }: PanelProps) => {
  const titleId = useId()
  return (
    <section className={surfaces.panel({ spacing, layout })} aria-labelledby={titleId} aria-busy={busy || undefined}>
      <div className={surfaces.panelHeader}>
        <h2 id={titleId} className={surfaces.panelTitle}>
          {title}
        </h2>
        {intro === undefined ? null : <p className={surfaces.muted}>{intro}</p>}
      </div>
      {children}
    </section>
  )
}
