import { globalStyle, style } from "@vanilla-extract/css"
import { recipe } from "@vanilla-extract/recipes"
import { vars } from "./theme.css.ts"

export const root = recipe({
  base: { display: "flex", flexDirection: "column", gap: vars.space.xs, minWidth: 0, margin: 0 },
  variants: {
    layout: {
      compact: { fontSize: vars.fontSize.small },
      roomy: { fontSize: vars.fontSize.body, maxWidth: "560px" }
    }
  }
})

export const line = recipe({
  base: { margin: 0, minWidth: 0, color: vars.color.text },
  variants: {
    layout: {
      // one line, cut short: cards and list items keep their height whatever the title
      compact: { overflow: "hidden", whiteSpace: "nowrap", textOverflow: "ellipsis" },
      roomy: { overflowWrap: "anywhere" }
    }
  }
})

/** Words, not a colour, say which is which. */
export const label = style({
  display: "inline-block",
  minWidth: "2.75em",
  marginRight: vars.space.xs,
  fontWeight: 700,
  fontSize: vars.fontSize.small,
  letterSpacing: "0.04em",
  textTransform: "uppercase",
  color: vars.color.textMuted
})

export const nowLabel = style([label, { color: vars.color.accentHover }])

export const programme = style({ fontWeight: 600 })

export const subtitle = style({ color: vars.color.textMuted })

export const time = style({ whiteSpace: "nowrap", color: vars.color.textMuted, fontVariantNumeric: "tabular-nums" })

export const bar = recipe({
  base: {
    display: "block",
    width: "100%",
    margin: 0,
    border: "none",
    borderRadius: vars.radius.pill,
    overflow: "hidden",
    appearance: "none",
    background: vars.color.border,
    // what Firefox paints the filled part with
    color: vars.color.accentHover
  },
  variants: {
    layout: {
      compact: { height: "4px" },
      roomy: { height: "6px", maxWidth: "360px" }
    }
  }
})

const barClass = bar.classNames.base
globalStyle(`${barClass}::-webkit-progress-bar`, { background: vars.color.border, borderRadius: vars.radius.pill })
globalStyle(`${barClass}::-webkit-progress-value`, { background: vars.color.accentHover, borderRadius: vars.radius.pill })
globalStyle(`${barClass}::-moz-progress-bar`, { background: vars.color.accentHover, borderRadius: vars.radius.pill })
