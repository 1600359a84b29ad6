import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const shell = style({ minHeight: "100vh", display: "flex", flexDirection: "column" })

export const main = style({
  flex: 1,
  width: "100%",
  maxWidth: vars.size.content,
  margin: "0 auto",
  padding: vars.space.xl,
  "@media": { [media.belowSmall]: { padding: vars.space.lg } }
})
