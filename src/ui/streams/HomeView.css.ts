import { style } from "@vanilla-extract/css"
import { GRID_COLUMNS } from "../../domain/Layout.ts"
import { media, vars } from "../shared/theme.css.ts"

export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.lg,
  marginBottom: vars.space.xl
})

export const heading = style({ margin: 0, fontSize: vars.fontSize.title })

export const subheading = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small })

export const actions = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
  "@media": { [media.belowSmall]: { width: "100%" } }
})

export const actionButton = style({ "@media": { [media.belowSmall]: { flex: "1 1 auto" } } })

export const helpLink = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "40px",
  height: "40px",
  borderRadius: "50%",
  color: vars.color.textMuted,
  border: `1px solid ${vars.color.border}`,
  selectors: { "&:hover": { color: vars.color.text, background: vars.color.surfaceHover } }
})

const columns = (count: number) => `repeat(${count}, minmax(0, 1fr))`

/** 5 columns, then 4/3/2/1 below 1500/1200/900/600 px (SPEC §9). */
export const grid = style({
  display: "grid",
  gridTemplateColumns: columns(GRID_COLUMNS.default),
  gap: vars.space.lg,
  margin: 0,
  padding: 0,
  listStyle: "none",
  "@media": {
    [media.belowXlarge]: { gridTemplateColumns: columns(GRID_COLUMNS.below1500) },
    [media.belowLarge]: { gridTemplateColumns: columns(GRID_COLUMNS.below1200) },
    [media.belowMedium]: { gridTemplateColumns: columns(GRID_COLUMNS.below900) },
    [media.belowSmall]: { gridTemplateColumns: columns(GRID_COLUMNS.below600) }
  }
})
