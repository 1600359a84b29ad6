import { style } from "@vanilla-extract/css"
import { vars } from "./theme.css.ts"

/** Stands in for a stream without a poster, or one whose poster did not load. */
export const placeholder = style({
  display: "grid",
  placeItems: "center",
  color: vars.color.textMuted,
  background: `linear-gradient(135deg, ${vars.color.surfaceHover}, ${vars.color.surfaceRaised} 55%, ${vars.color.surface})`
})
