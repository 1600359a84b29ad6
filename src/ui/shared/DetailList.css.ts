import { style } from "@vanilla-extract/css"
import { recipe } from "@vanilla-extract/recipes"
import { media, vars } from "./theme.css.ts"

/** Terms beside what they are where there is room, one under the other on a phone. */
export const list = recipe({
  base: {
    margin: 0,
    display: "grid",
    gridTemplateColumns: "max-content minmax(0, 1fr)",
    gap: `${vars.space.xs} ${vars.space.md}`,
    "@media": { [media.belowSmall]: { gridTemplateColumns: "minmax(0, 1fr)", rowGap: 0 } }
  },
  variants: { size: { body: {}, small: { fontSize: vars.fontSize.small } } },
  defaultVariants: { size: "body" }
})

export const term = style({
  color: vars.color.textMuted,
  fontWeight: 600,
  "@media": { [media.belowSmall]: { marginTop: vars.space.xs } }
})

// a long description scrolls within its own line rather than push the rest out of a dialog
export const definition = style({ margin: 0, overflowWrap: "anywhere", whiteSpace: "pre-wrap", maxHeight: "30vh", overflowY: "auto" })
