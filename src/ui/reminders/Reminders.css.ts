import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const leads = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
  margin: `${vars.space.md} 0`,
  padding: 0,
  border: "none"
})

export const legend = style({ marginBottom: vars.space.sm, fontWeight: 600 })

export const lead = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  minHeight: "36px",
  cursor: "pointer"
})

export const list = style({ display: "flex", flexDirection: "column", gap: vars.space.sm, margin: 0, padding: 0, listStyle: "none" })

export const item = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) auto",
  alignItems: "center",
  gap: vars.space.md,
  padding: vars.space.md,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  "@media": { [media.belowSmall]: { gridTemplateColumns: "minmax(0, 1fr)" } }
})

export const itemText = style({ display: "flex", flexDirection: "column", gap: vars.space.xs, minWidth: 0 })

export const title = style({ margin: 0, fontWeight: 600, overflowWrap: "anywhere" })

export const meta = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small })

export const itemActions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm })

export const feedUrl = style({ fontFamily: vars.font.mono, overflowWrap: "anywhere", fontSize: vars.fontSize.small })

export const feedRow = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm, alignItems: "center" })
