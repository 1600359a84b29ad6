import { style } from "@vanilla-extract/css"
import { media, vars } from "./theme.css.ts"

/** Tables of the data pages: scroll sideways inside their frame on a narrow screen, never the page. */
// positioned, so that visually hidden labels (absolutely placed) scroll and clip with the table
export const tableWrap = style({ overflowX: "auto", maxWidth: "100%", position: "relative" })

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
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap",
  "@media": { [media.belowSmall]: { padding: `${vars.space.sm} ${vars.space.xs}` } }
})

export const numberHeadCell = style([headCell, { textAlign: "right" }])

export const cell = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
  overflowWrap: "anywhere",
  "@media": { [media.belowSmall]: { padding: `${vars.space.sm} ${vars.space.xs}` } }
})

export const numberCell = style([cell, { textAlign: "right", whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" }])

export const nowrapCell = style([cell, { whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" }])

export const empty = style({
  margin: 0,
  padding: vars.space.xl,
  textAlign: "center",
  color: vars.color.textMuted,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.md
})
