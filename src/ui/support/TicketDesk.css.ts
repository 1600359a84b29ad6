import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const statValue = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 700, fontVariantNumeric: "tabular-nums" })

export const subjectButton = style({
  padding: 0,
  border: 0,
  background: "none",
  color: vars.color.accentHover,
  font: "inherit",
  fontWeight: 600,
  textAlign: "left",
  cursor: "pointer",
  textDecoration: "underline",
  overflowWrap: "break-word",
  whiteSpace: "pre-wrap",
  // a short subject stays on a line or two however long the addresses beside it
  minWidth: "14ch"
})

export const clip = style({
  display: "-webkit-box",
  WebkitLineClamp: 3,
  WebkitBoxOrient: "vertical",
  overflow: "hidden",
  whiteSpace: "pre-wrap",
  minWidth: "20ch",
  maxWidth: "40ch"
})

export const statusGroup = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm, margin: 0, padding: 0, border: 0 })

export const statusLegend = style({
  padding: 0,
  marginBottom: vars.space.xs,
  color: vars.color.textMuted,
  fontWeight: 600,
  fontSize: vars.fontSize.small
})
