import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const page = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, 1fr) 320px",
  gap: vars.space.xl,
  alignItems: "start",
  "@media": { [media.belowLarge]: { gridTemplateColumns: "minmax(0, 1fr)" } }
})

export const stage = style({ display: "flex", flexDirection: "column", gap: vars.space.md, minWidth: 0 })

export const meta = style({
  display: "flex",
  alignItems: "flex-start",
  justifyContent: "space-between",
  gap: vars.space.md,
  "@media": { [media.belowSmall]: { flexDirection: "column", alignItems: "stretch" } }
})

export const text = style({ display: "flex", flexDirection: "column", gap: vars.space.xs, minWidth: 0 })

export const title = style({ margin: 0, fontSize: vars.fontSize.title, lineHeight: 1.25, overflowWrap: "anywhere" })

export const playerName = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small })

/** two lines at most, then an ellipsis (SPEC §9) */
export const description = style({
  margin: 0,
  color: vars.color.textMuted,
  display: "-webkit-box",
  WebkitBoxOrient: "vertical",
  WebkitLineClamp: 2,
  lineClamp: 2,
  overflow: "hidden",
  overflowWrap: "anywhere"
})
