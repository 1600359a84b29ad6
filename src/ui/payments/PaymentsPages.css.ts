import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const text = style({ margin: 0 })

export const emptyTitle = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 700 })

export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm })

export const tableFrame = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg
})

// On a phone each payment becomes a small card of labelled values; the table stays a table to
// assistive technology (its roles are set explicitly, as `display` changes drop them in some browsers).
const phone = media.belowSmall

export const table = style({
  width: "100%",
  borderCollapse: "collapse",
  fontSize: vars.fontSize.body,
  "@media": { [phone]: { display: "block" } }
})

export const caption = style({
  textAlign: "left",
  padding: `${vars.space.lg} ${vars.space.lg} ${vars.space.sm}`,
  fontSize: vars.fontSize.large,
  fontWeight: 700,
  "@media": { [phone]: { display: "block", padding: `${vars.space.md} ${vars.space.lg} ${vars.space.xs}` } }
})

export const head = style({
  "@media": {
    [phone]: { position: "absolute", width: "1px", height: "1px", overflow: "hidden", clip: "rect(0, 0, 0, 0)", whiteSpace: "nowrap" }
  }
})

export const body = style({ "@media": { [phone]: { display: "block" } } })

export const row = style({
  "@media": {
    [phone]: {
      display: "grid",
      gridTemplateColumns: "minmax(0, 1fr) auto",
      gridTemplateAreas: '"date price" "paypal paypal" "id method"',
      gap: `${vars.space.sm} ${vars.space.lg}`,
      padding: `${vars.space.md} ${vars.space.lg}`,
      borderTop: `1px solid ${vars.color.border}`
    }
  }
})

export const headCell = style({
  padding: `${vars.space.sm} ${vars.space.lg}`,
  textAlign: "left",
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap"
})

export const numberHead = style([headCell, { textAlign: "right" }])

export const cell = style({
  padding: `${vars.space.sm} ${vars.space.lg}`,
  borderBottom: `1px solid ${vars.color.border}`,
  whiteSpace: "nowrap",
  fontVariantNumeric: "tabular-nums",
  selectors: { "tr:last-child > &": { borderBottom: "none" } },
  "@media": { [phone]: { display: "flex", flexDirection: "column", gap: "2px", padding: 0, border: "none" } }
})

export const dateCell = style([cell, { "@media": { [phone]: { gridArea: "date", fontWeight: 700 } } }])

export const priceCell = style([
  cell,
  { textAlign: "right", "@media": { [phone]: { gridArea: "price", alignItems: "flex-end", fontWeight: 700 } } }
])

// a PayPal id (17 characters) keeps to one line; a bitcoin transaction hash (64) wraps
export const paypalCell = style([
  cell,
  {
    fontFamily: vars.font.mono,
    fontSize: vars.fontSize.small,
    whiteSpace: "normal",
    overflowWrap: "anywhere",
    minWidth: "18ch",
    "@media": { [phone]: { gridArea: "paypal", minWidth: 0 } }
  }
])

export const idCell = style([cell, { "@media": { [phone]: { gridArea: "id" } } }])

export const methodCell = style([cell, { "@media": { [phone]: { gridArea: "method", alignItems: "flex-end" } } }])

/** A value's column name beside it, on a phone only; the table's own headers name it to assistive technology. */
export const cellLabel = style({
  display: "none",
  "@media": {
    [phone]: { display: "block", color: vars.color.textMuted, fontFamily: vars.font.body, fontSize: vars.fontSize.small, fontWeight: 600 }
  }
})

export const statusValue = style({ margin: 0, fontSize: vars.fontSize.title, fontWeight: 700, lineHeight: 1.25 })

export const failure = style({ margin: 0, color: vars.color.danger })
