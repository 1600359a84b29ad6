import { keyframes, style, styleVariants } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

const slideIn = keyframes({ from: { opacity: 0, transform: "translateY(8px)" }, to: { opacity: 1, transform: "none" } })

export const region = style({
  position: "fixed",
  right: vars.space.lg,
  bottom: vars.space.lg,
  zIndex: 50,
  width: "min(calc(100vw - 32px), 360px)",
  margin: 0,
  padding: 0,
  listStyle: "none",
  display: "flex",
  flexDirection: "column",
  gap: vars.space.sm,
  pointerEvents: "none",
  "@media": { [media.belowSmall]: { left: vars.space.lg, right: vars.space.lg, width: "auto" } }
})

export const item = style({
  pointerEvents: "auto",
  display: "flex",
  alignItems: "flex-start",
  gap: vars.space.md,
  padding: vars.space.md,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderLeftWidth: "4px",
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.overlay,
  animation: `${slideIn} 160ms ease-out`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } }
})

export const tone = styleVariants({
  success: { borderLeftColor: vars.color.success },
  error: { borderLeftColor: vars.color.danger },
  info: { borderLeftColor: vars.color.accent }
})

export const body = style({ flex: 1, minWidth: 0 })

export const title = style({ margin: 0, fontWeight: 700 })

// a second line (the server's reason under "Please try again.") keeps its own line
export const message = style({ margin: 0, color: vars.color.textMuted, overflowWrap: "anywhere", whiteSpace: "pre-line" })

export const dismiss = style({
  flexShrink: 0,
  display: "inline-flex",
  padding: vars.space.xs,
  border: "none",
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: vars.color.textMuted,
  cursor: "pointer",
  selectors: { "&:hover": { color: vars.color.text, background: vars.color.surfaceHover } }
})
