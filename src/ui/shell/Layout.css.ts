import { globalStyle, style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const shell = style({ minHeight: "100vh", display: "flex", flexDirection: "column" })

// The header is sticky: whatever gets focus or is scrolled to (a heading, the main landmark, a
// field, a button) stops below it instead of under it.
globalStyle(`html:has(${shell})`, { scrollPaddingTop: vars.size.headerHeight })

export const main = style({
  flex: 1,
  width: "100%",
  maxWidth: vars.size.content,
  margin: "0 auto",
  padding: vars.space.xl,
  "@media": { [media.belowSmall]: { padding: vars.space.lg } }
})
