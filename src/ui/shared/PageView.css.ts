import { style } from "@vanilla-extract/css"
import { vars } from "./theme.css.ts"

export const page = style({ maxWidth: "860px", display: "flex", flexDirection: "column", gap: vars.space.lg })

export const title = style({ margin: 0, fontSize: vars.fontSize.title, lineHeight: 1.25 })

export const lead = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.large })

export const panel = style({
  padding: vars.space.xl,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.md
})

export const faq = style({ margin: 0, display: "flex", flexDirection: "column", gap: vars.space.md })

export const question = style({ margin: 0, fontWeight: 700, fontSize: vars.fontSize.large })

export const answer = style({ margin: 0, color: vars.color.textMuted })
