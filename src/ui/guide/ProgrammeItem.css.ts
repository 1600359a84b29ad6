import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const programme = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
  minWidth: 0,
  padding: vars.space.md,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md
})

export const live = style({ background: vars.color.accentSurface, borderColor: vars.color.accent })

export const when = style({
  margin: 0,
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  gap: vars.space.sm,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small,
  fontVariantNumeric: "tabular-nums"
})

export const times = style({ whiteSpace: "nowrap" })

// dark on the solid red: the red on its tint would sit on the LIVE tile's own tint, below AA contrast
export const liveBadge = style({
  padding: `0 ${vars.space.sm}`,
  borderRadius: vars.radius.sm,
  background: vars.color.danger,
  color: vars.color.background,
  fontWeight: 700,
  letterSpacing: "0.06em"
})

export const day = style({ color: vars.color.text, fontWeight: 600 })

export const channel = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, fontWeight: 600 })

export const title = style({ margin: 0, fontWeight: 600, overflowWrap: "anywhere" })

export const subtitle = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, overflowWrap: "anywhere" })

export const progress = style({
  height: "3px",
  marginTop: vars.space.xs,
  borderRadius: vars.radius.pill,
  background: vars.color.border,
  overflow: "hidden"
})

export const progressDone = style({ height: "100%", background: vars.color.accentHover, transformOrigin: "left" })

export const actions = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: vars.space.sm, marginTop: vars.space.xs })

export const watch = style({ minHeight: "32px", padding: `0 ${vars.space.md}` })
