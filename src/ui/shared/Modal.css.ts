import { keyframes, style } from "@vanilla-extract/css"
import { vars } from "./theme.css.ts"

const fadeIn = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } })
const rise = keyframes({
  from: { opacity: 0, transform: "translate(-50%, calc(-50% + 8px))" },
  to: { opacity: 1, transform: "translate(-50%, -50%)" }
})

export const overlay = style({
  position: "fixed",
  inset: 0,
  background: vars.color.overlay,
  zIndex: 40,
  animation: `${fadeIn} 150ms ease-out`
})

export const content = style({
  position: "fixed",
  top: "50%",
  left: "50%",
  transform: "translate(-50%, -50%)",
  zIndex: 41,
  width: "min(calc(100vw - 32px), 480px)",
  maxHeight: "calc(100vh - 48px)",
  overflowY: "auto",
  padding: vars.space.xl,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  boxShadow: vars.shadow.overlay,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.lg,
  animation: `${rise} 180ms ease-out`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } }
})

export const title = style({ margin: 0, fontSize: vars.fontSize.large, lineHeight: 1.3 })

export const body = style({ margin: 0, color: vars.color.textMuted, whiteSpace: "pre-line" })

export const actions = style({ display: "flex", justifyContent: "flex-end", flexWrap: "wrap", gap: vars.space.sm })
