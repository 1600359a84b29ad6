import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const filters = style({ display: "flex", flexDirection: "column", gap: vars.space.md })

export const buttons = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm })

/** The code under an action's words, for those who filter or script by it. */
export const code = style({
  display: "block",
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, monospace"
})

/** A detail keeps its words, wrapping anywhere rather than widening the page. */
export const detail = style({ display: "block", minWidth: "18ch", maxWidth: "48ch", overflowWrap: "anywhere", whiteSpace: "pre-wrap" })

export const more = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "flex-start",
  gap: vars.space.sm,
  paddingTop: vars.space.md
})

export const emptyTitle = style({ margin: 0, fontWeight: 700, fontSize: vars.fontSize.large })
