import { style, styleVariants } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const list = style({ display: "flex", flexWrap: "wrap", gap: vars.space.xs, margin: 0, padding: 0, listStyle: "none" })

const chip = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  minHeight: "26px",
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  lineHeight: 1.2,
  textDecoration: "none",
  border: "1px solid transparent",
  selectors: { "&:hover": { filter: "brightness(1.15)" } }
})

export const tag = styleVariants({
  warning: [chip, { color: vars.color.danger, background: vars.color.dangerSurface, borderColor: vars.color.dangerBorder }],
  info: [chip, { color: vars.color.info, background: vars.color.infoSurface, borderColor: vars.color.infoBorder }],
  icon: [chip, { color: vars.color.text, background: vars.color.surfaceRaised, borderColor: vars.color.border, padding: "2px 6px" }],
  label: [chip, { color: vars.color.textMuted, background: vars.color.surfaceRaised, borderColor: vars.color.border }]
})
