import { globalStyle, style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

/** Under the picture, as wide as it, in the page's flow. */
export const prompt = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  flexWrap: "wrap",
  gap: vars.space.md,
  padding: `${vars.space.md} ${vars.space.lg}`,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.accent}`,
  outline: "none",
  "@media": { [media.belowSmall]: { flexDirection: "column", alignItems: "stretch", padding: vars.space.md } }
})

export const text = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
  minWidth: 0,
  flex: "1 1 280px",
  "@media": { [media.belowSmall]: { flex: "none" } }
})

export const title = style({ margin: 0, fontSize: vars.fontSize.body, fontWeight: 700, lineHeight: 1.3 })

export const description = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, overflowWrap: "anywhere" })

export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm, justifyContent: "flex-end" })

// on a phone the answers share the width
globalStyle(`${actions} > button`, { "@media": { [media.belowSmall]: { flex: "1 1 auto" } } })
