import { style } from "@vanilla-extract/css"
import { panel } from "../shared/surfaces.css.ts"
import { vars } from "../shared/theme.css.ts"

export const page = style({
  minHeight: "100vh",
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  padding: `${vars.space.xxl} ${vars.space.lg}`,
  gap: vars.space.xl,
  background: `radial-gradient(1200px 600px at 50% -10%, ${vars.color.accentGlow}, transparent 70%), ${vars.color.background}`
})

export const brand = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  color: vars.color.text,
  fontSize: vars.fontSize.large,
  fontWeight: 700,
  letterSpacing: "0.02em",
  textDecoration: "none"
})

export const brandMark = style({ color: vars.color.accentHover })

export const card = style([panel({ spacing: "roomy", elevation: "raised" }), { width: "min(100%, 420px)" }])
