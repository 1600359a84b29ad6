import { keyframes, style } from "@vanilla-extract/css"
import { panel } from "./surfaces.css.ts"
import { vars } from "./theme.css.ts"

export const screen = style({
  minHeight: "100vh",
  display: "grid",
  placeItems: "center",
  padding: vars.space.xl
})

export const inline = style({
  display: "grid",
  placeItems: "center",
  padding: `${vars.space.xxl} ${vars.space.lg}`
})

export const card = style([
  panel({ spacing: "spacious", elevation: "raised" }),
  { width: "min(100%, 520px)", alignItems: "center", textAlign: "center" }
])

const spin = keyframes({ to: { transform: "rotate(360deg)" } })

export const spinner = style({
  width: "36px",
  height: "36px",
  borderRadius: "50%",
  border: `3px solid ${vars.color.border}`,
  borderTopColor: vars.color.accent,
  animation: `${spin} 800ms linear infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animationDuration: "2400ms" } }
})
