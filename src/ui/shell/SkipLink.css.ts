import { globalStyle, style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const skipLink = style({
  position: "fixed",
  top: vars.space.sm,
  left: vars.space.sm,
  zIndex: 60,
  padding: `${vars.space.sm} ${vars.space.lg}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.focus}`,
  boxShadow: vars.shadow.overlay,
  color: vars.color.text,
  fontWeight: 600,
  textDecoration: "none",
  // off screen, not display:none, so it stays in the Tab order
  transform: "translateY(calc(-100% - 16px))",
  selectors: { "&:focus": { transform: "none" } }
})

/** A landmark focused by script only: the skip link already shows where focus went. */
export const mainTarget = style({ selectors: { "&:focus": { outline: "none" } } })

/** The page's heading, focused by script when a dialog that opened by itself closes. */
globalStyle(`${mainTarget} h1[tabindex="-1"]:focus`, { outline: "none" })
