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

/** 'Log out all devices', and Cancel beside it while it waits to be confirmed. */
export const dangerActions = style({ display: "flex", gap: vars.space.sm, flexWrap: "wrap" })

export const dangerButton = style({
  color: vars.color.danger,
  borderColor: vars.color.danger,
  selectors: { "&:hover:not(:disabled):not([aria-disabled='true'])": { background: vars.color.dangerSurface } }
})

/** A new address waiting for its mailed confirmation, and the way to withdraw it, under the email field. */
export const pending = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.sm,
  flexWrap: "wrap",
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.color.accentSurface,
  marginTop: `calc(-1 * ${vars.space.sm})`
})

export const pendingText = style({ margin: 0, fontSize: vars.fontSize.small, color: vars.color.text, overflowWrap: "anywhere" })
