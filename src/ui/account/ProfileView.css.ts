import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

/** The two forms side by side where there is room, stacked below the medium breakpoint. */
export const forms = style({
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  gap: vars.space.xl,
  alignItems: "start",
  "@media": { [media.belowMedium]: { gridTemplateColumns: "minmax(0, 1fr)" } }
})

export const dangerRow = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.lg,
  flexWrap: "wrap"
})

export const dangerButton = style({
  color: vars.color.danger,
  borderColor: vars.color.danger,
  selectors: { "&:hover:not(:disabled):not([aria-disabled='true'])": { background: vars.color.dangerSurface } }
})
