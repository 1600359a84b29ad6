import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const stats = style({
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  gap: vars.space.md,
  margin: 0,
  "@media": { [media.belowSmall]: { gap: vars.space.sm } }
})

export const linkRow = style({
  display: "flex",
  gap: vars.space.sm,
  alignItems: "stretch",
  "@media": { [media.belowSmall]: { flexDirection: "column" } }
})

export const linkInput = style({ flex: "1 1 auto", minWidth: 0, fontFamily: vars.font.mono, fontSize: vars.fontSize.small })

export const linkActions = style({
  display: "flex",
  gap: vars.space.sm,
  "@media": { [media.belowSmall]: { display: "grid", gridAutoFlow: "column", gridAutoColumns: "1fr" } }
})

export const redeemSelect = style({ minWidth: "160px", cursor: "pointer", "@media": { [media.belowSmall]: { width: "100%" } } })

export const cost = style({ margin: 0, fontSize: vars.fontSize.large })

export const costValue = style({ fontWeight: 700 })
