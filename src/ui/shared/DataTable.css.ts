import { style } from "@vanilla-extract/css"
import { recipe } from "@vanilla-extract/recipes"
import { media, vars } from "./theme.css.ts"

// On a phone each row is a card of labelled values, two to a line, a long value across the card;
// wider screens get the table itself, which scrolls sideways inside its frame, never the page.
const phone = media.belowSmall

// positioned, so that visually hidden labels (absolutely placed) scroll and clip with the table
export const scroller = style({ overflowX: "auto", maxWidth: "100%", position: "relative" })

export const table = style({
  width: "100%",
  borderCollapse: "collapse",
  fontSize: vars.fontSize.body,
  "@media": { [phone]: { display: "block" } }
})

export const caption = style({
  textAlign: "left",
  captionSide: "top",
  paddingBottom: vars.space.sm,
  fontSize: vars.fontSize.large,
  fontWeight: 700,
  "@media": { [phone]: { display: "block" } }
})

/** The cards name each value themselves, so the header row is left to assistive technology. */
export const head = style({
  "@media": {
    [phone]: { position: "absolute", width: "1px", height: "1px", overflow: "hidden", clip: "rect(0, 0, 0, 0)", whiteSpace: "nowrap" }
  }
})

export const body = style({ "@media": { [phone]: { display: "flex", flexDirection: "column", gap: vars.space.sm } } })

export const row = recipe({
  base: {
    "@media": {
      [phone]: {
        display: "grid",
        gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
        // a short value moves up beside the one before a long one rather than leave a hole
        gridAutoFlow: "row dense",
        gap: `${vars.space.sm} ${vars.space.md}`,
        padding: vars.space.md,
        border: `1px solid ${vars.color.border}`,
        borderRadius: vars.radius.md
      }
    }
  },
  variants: {
    tone: { none: {}, strong: { background: vars.color.flaggedStrong }, light: { background: vars.color.flaggedLight } },
    clickable: {
      true: { cursor: "pointer", selectors: { "&:hover": { background: vars.color.surfaceHover } } },
      false: {}
    }
  },
  defaultVariants: { tone: "none", clickable: false }
})

const cellPadding = `${vars.space.sm} ${vars.space.md}`

export const headCell = recipe({
  base: {
    padding: cellPadding,
    borderBottom: `1px solid ${vars.color.border}`,
    textAlign: "left",
    color: vars.color.textMuted,
    fontSize: vars.fontSize.small,
    fontWeight: 600,
    whiteSpace: "nowrap"
  },
  variants: { numeric: { true: { textAlign: "right" }, false: {} } },
  defaultVariants: { numeric: false }
})

export const cell = recipe({
  base: {
    padding: cellPadding,
    borderBottom: `1px solid ${vars.color.border}`,
    "@media": {
      [phone]: {
        display: "flex",
        flexDirection: "column",
        gap: "2px",
        minWidth: 0,
        padding: 0,
        border: "none",
        textAlign: "left",
        whiteSpace: "normal",
        overflowWrap: "anywhere",
        // the column's name, on a phone only; the table's own headers name it to assistive technology
        selectors: {
          "&::before": {
            content: ["attr(data-label)", 'attr(data-label) / ""'],
            color: vars.color.textMuted,
            fontFamily: vars.font.body,
            fontSize: vars.fontSize.small,
            fontWeight: 600
          }
        }
      }
    }
  },
  variants: {
    kind: {
      // breaks between words only: a squeezed table scrolls rather than cut a word (an address) to pieces
      text: { overflowWrap: "break-word" },
      number: { textAlign: "right", whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" },
      nowrap: { whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" },
      // an id or a token: a short one keeps to a line, a long one (a 64-character hash) wraps anywhere
      code: { fontFamily: vars.font.mono, fontSize: vars.fontSize.small, overflowWrap: "anywhere", minWidth: "18ch" }
    },
    wide: { true: { "@media": { [phone]: { gridColumn: "1 / -1" } } }, false: {} }
  },
  defaultVariants: { kind: "text", wide: false }
})
