import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const footer = style({
  borderTop: `1px solid ${vars.color.border}`,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small
})

export const inner = style({
  maxWidth: vars.size.content,
  margin: "0 auto",
  padding: `${vars.space.lg} ${vars.space.xl}`,
  display: "flex",
  flexWrap: "wrap",
  justifyContent: "space-between",
  gap: vars.space.sm
})

export const text = style({ margin: 0 })
