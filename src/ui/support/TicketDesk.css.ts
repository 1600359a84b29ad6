import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const statValue = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 700, fontVariantNumeric: "tabular-nums" })

export const filters = style({
  display: "grid",
  gridTemplateColumns: "minmax(160px, 220px) minmax(200px, 1fr)",
  gap: vars.space.md,
  alignItems: "end",
  "@media": { [media.belowSmall]: { gridTemplateColumns: "1fr" } }
})

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

export const details = style({
  display: "grid",
  gridTemplateColumns: "max-content 1fr",
  gap: `${vars.space.xs} ${vars.space.md}`,
  margin: 0
})

export const term = style({ color: vars.color.textMuted, fontWeight: 600 })

export const definition = style({ margin: 0, overflowWrap: "anywhere", whiteSpace: "pre-wrap", maxHeight: "30vh", overflowY: "auto" })

export const statusGroup = style({ display: "flex", flexWrap: "wrap", gap: vars.space.sm, margin: 0, padding: 0, border: 0 })

export const statusLegend = style({
  padding: 0,
  marginBottom: vars.space.xs,
  color: vars.color.textMuted,
  fontWeight: 600,
  fontSize: vars.fontSize.small
})
