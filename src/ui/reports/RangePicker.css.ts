import { globalStyle, style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const picker = style({ display: "flex", flexDirection: "column", gap: vars.space.sm, minWidth: 0 })

export const years = style({ display: "flex", flexWrap: "wrap", alignItems: "center", gap: vars.space.md })

export const hint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small })

export const yearGrid = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.sm,
  padding: vars.space.md,
  maxWidth: "420px",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md
})

export const yearNav = style({ display: "flex", justifyContent: "space-between", gap: vars.space.sm })

export const yearCells = style({ display: "grid", gridTemplateColumns: "repeat(4, 1fr)", gap: vars.space.xs })

export const yearCell = style({
  minHeight: "40px",
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.sm,
  background: vars.color.surface,
  color: vars.color.text,
  fontVariantNumeric: "tabular-nums",
  cursor: "pointer",
  selectors: { "&:hover": { background: vars.color.surfaceHover } }
})

export const yearCurrent = style([
  yearCell,
  { background: vars.color.accent, borderColor: vars.color.accent, color: vars.color.onAccent, fontWeight: 700 }
])

export const calendar = style({
  vars: {
    "--rdp-accent-color": vars.color.accent,
    "--rdp-accent-background-color": vars.color.accentSurface,
    "--rdp-today-color": vars.color.accentHover,
    "--rdp-day-height": "40px",
    "--rdp-day-width": "40px",
    "--rdp-day_button-height": "38px",
    "--rdp-day_button-width": "38px",
    "--rdp-months-gap": "2rem"
  },
  color: vars.color.text,
  "@media": {
    [media.belowSmall]: {
      vars: { "--rdp-day-height": "38px", "--rdp-day-width": "38px", "--rdp-day_button-height": "36px", "--rdp-day_button-width": "36px" }
    }
  }
})

export const weekend = style({ color: vars.color.textMuted })

globalStyle(`${calendar} .rdp-chevron`, { fill: vars.color.text })
globalStyle(`${calendar} .rdp-range_start .rdp-day_button, ${calendar} .rdp-range_end .rdp-day_button`, { color: vars.color.onAccent })
globalStyle(`${calendar} .rdp-day_button:focus-visible`, { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" })
