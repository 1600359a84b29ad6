import { style, styleVariants } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const form = style({ display: "flex", flexDirection: "column", gap: vars.space.lg })

/** A request that failed, in red (SPEC §2 for sign-in); the form keeps what was typed. */
export const alert = style({
  margin: 0,
  padding: `${vars.space.sm} ${vars.space.md}`,
  color: vars.color.danger,
  background: vars.color.dangerSurface,
  borderRadius: vars.radius.md,
  fontWeight: 600
})

export const footer = style({ margin: 0, textAlign: "center", fontSize: vars.fontSize.small, color: vars.color.textMuted })

export const result = style({ display: "flex", flexDirection: "column", alignItems: "center", textAlign: "center", gap: vars.space.md })

export const badgeBase = style({
  width: "56px",
  height: "56px",
  borderRadius: "50%",
  display: "grid",
  placeItems: "center"
})

export const badge = styleVariants({
  success: [badgeBase, { color: vars.color.success, background: vars.color.successSurface }],
  error: [badgeBase, { color: vars.color.danger, background: vars.color.dangerSurface }],
  info: [badgeBase, { color: vars.color.accent, background: vars.color.accentSurface }]
})

export const message = style({ margin: 0, color: vars.color.textMuted, overflowWrap: "anywhere" })

export const strong = style({ color: vars.color.text, fontWeight: 600 })

export const actions = style({
  display: "flex",
  flexDirection: "column",
  alignSelf: "stretch",
  gap: vars.space.sm,
  marginTop: vars.space.sm
})
