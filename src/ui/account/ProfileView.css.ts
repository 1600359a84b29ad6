import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const page = style({ maxWidth: "980px", display: "flex", flexDirection: "column", gap: vars.space.xl })

export const header = style({ display: "flex", flexDirection: "column", gap: vars.space.xs })

export const title = style({ margin: 0, fontSize: vars.fontSize.title, lineHeight: 1.25 })

export const lead = style({ margin: 0, color: vars.color.textMuted })

/** The two forms side by side where there is room, stacked below the medium breakpoint. */
export const forms = style({
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  gap: vars.space.xl,
  alignItems: "start",
  "@media": { [media.belowMedium]: { gridTemplateColumns: "minmax(0, 1fr)" } }
})

export const panel = style({
  padding: vars.space.xl,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.lg,
  "@media": { [media.belowSmall]: { padding: vars.space.lg } }
})

export const panelHeading = style({ margin: 0, fontSize: vars.fontSize.large, lineHeight: 1.3 })

export const panelText = style({ margin: 0, color: vars.color.textMuted })

export const submitRow = style({ display: "flex", justifyContent: "flex-end" })

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
