import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const select = style({ minWidth: "260px", cursor: "pointer", "@media": { [media.belowSmall]: { minWidth: 0 } } })

export const results = style({ display: "flex", flexDirection: "column", gap: vars.space.md })

export const resultList = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(260px, 1fr))",
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  listStyle: "none",
  "@media": { [media.belowSmall]: { gridTemplateColumns: "minmax(0, 1fr)" } }
})
