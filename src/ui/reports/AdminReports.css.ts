import { globalStyle, style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

/** The figures or tables of one view, one panel under another. */
export const stack = style({ display: "flex", flexDirection: "column", gap: vars.space.xl, minWidth: 0 })

export const toolbar = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm })

export const rangeRow = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md
})

export const figures = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(150px, 1fr))",
  gap: vars.space.sm,
  margin: 0
})

export const figure = style({
  display: "flex",
  flexDirection: "column-reverse",
  gap: "2px",
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.surfaceRaised,
  borderRadius: vars.radius.md
})

export const figureLabel = style({ color: vars.color.textMuted, fontSize: vars.fontSize.small })

export const figureValue = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 700, fontVariantNumeric: "tabular-nums" })

export const change = style({ fontSize: vars.fontSize.small, fontWeight: 600 })
export const changeUp = style([change, { color: vars.color.success }])
export const changeDown = style([change, { color: vars.color.danger }])
export const changeFlat = style([change, { color: vars.color.textMuted }])

export const charts = style({ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(min(320px, 100%), 1fr))", gap: vars.space.md })

export const chart = style({ margin: 0, display: "flex", flexDirection: "column", gap: vars.space.sm, minWidth: 0 })

export const chartCaption = style({ fontWeight: 600 })

export const chartCanvas = style({ minHeight: "220px", width: "100%" })

globalStyle(`${chartCanvas} .u-legend`, { color: vars.color.text, fontSize: vars.fontSize.small })

export const pager = style({ display: "flex", flexWrap: "wrap", alignItems: "center", justifyContent: "space-between", gap: vars.space.sm })

export const pagerText = style({ margin: 0, fontVariantNumeric: "tabular-nums" })

/** A session's token is short: it keeps to a line. */
export const token = style({ whiteSpace: "nowrap" })

/** What ending a connection does, in its confirmation; a very long address still fits a phone. */
export const endNote = style({ margin: 0, overflowWrap: "anywhere" })
