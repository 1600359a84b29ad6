import { style } from "@vanilla-extract/css"
import { recipe } from "@vanilla-extract/recipes"
import { vars } from "./theme.css.ts"

/** How wide a page grows: `reading` for text and one column of forms, `wide` for two, `full` for tables and grids. */
export const page = recipe({
  base: { display: "flex", flexDirection: "column", gap: vars.space.xl, minWidth: 0 },
  variants: { width: { reading: { maxWidth: "860px" }, wide: { maxWidth: "980px" }, full: {} } },
  defaultVariants: { width: "reading" }
})

/** The title with its introduction, and the page's own buttons beside them where there is room. */
export const head = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  justifyContent: "space-between",
  gap: vars.space.md
})

export const intro = style({ display: "flex", flexDirection: "column", gap: vars.space.xs })

export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm })
