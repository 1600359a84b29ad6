import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const list = style({ position: "relative", margin: 0, padding: 0, listStyle: "none" })

/**
 * Placed by the virtualiser; the padding is the gap between channels, inside what it measures.
 * Contained, so a channel coming into view lays out alone rather than with the whole page.
 */
export const row = style({
  position: "absolute",
  top: 0,
  left: 0,
  width: "100%",
  paddingBottom: vars.space.lg,
  contain: "layout paint style"
})

export const channel = style({
  display: "grid",
  gridTemplateColumns: "200px minmax(0, 1fr)",
  gap: vars.space.lg,
  padding: vars.space.lg,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  "@media": { [media.belowMedium]: { gridTemplateColumns: "minmax(0, 1fr)", gap: vars.space.md } }
})

export const heading = style({ display: "flex", flexDirection: "column", gap: vars.space.sm, minWidth: 0 })

export const name = style({ margin: 0, fontSize: vars.fontSize.large, lineHeight: 1.3, overflowWrap: "anywhere" })

export const programmes = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(220px, 1fr))",
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  listStyle: "none",
  "@media": { [media.belowSmall]: { gridTemplateColumns: "minmax(0, 1fr)" } }
})
