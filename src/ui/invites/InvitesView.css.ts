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

export const redeemRow = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: vars.space.lg,
  "@media": { [media.belowSmall]: { flexDirection: "column", alignItems: "stretch", gap: vars.space.md } }
})

export const redeemSelect = style({ minWidth: "160px", cursor: "pointer", "@media": { [media.belowSmall]: { width: "100%" } } })

export const cost = style({ margin: 0, fontSize: vars.fontSize.large })

export const costValue = style({ fontWeight: 700 })

export const tableWrap = style({ overflowX: "auto" })

export const table = style({ width: "100%", borderCollapse: "collapse", fontSize: vars.fontSize.body })

export const caption = style({
  textAlign: "left",
  captionSide: "top",
  paddingBottom: vars.space.sm,
  fontSize: vars.fontSize.large,
  fontWeight: 700
})

export const headCell = style({
  textAlign: "left",
  padding: `${vars.space.sm} ${vars.space.md}`,
  "@media": { [media.belowSmall]: { padding: `${vars.space.sm} ${vars.space.xs}` } },
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap"
})

export const cell = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  overflowWrap: "break-word",
  // a phone has room for an address beside two dates only with tighter cells
  "@media": { [media.belowSmall]: { padding: `${vars.space.sm} ${vars.space.xs}` } }
})

export const dateCell = style([
  cell,
  { whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums", "@media": { [media.belowSmall]: { fontSize: vars.fontSize.small } } }
])

export const empty = style({
  margin: 0,
  padding: vars.space.xl,
  textAlign: "center",
  color: vars.color.textMuted,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.md
})
