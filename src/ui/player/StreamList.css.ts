import { style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const side = style({
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  padding: vars.space.md,
  "@media": { [media.belowSmall]: { padding: vars.space.sm } }
})

export const sideTitle = style({ margin: `0 0 ${vars.space.sm}`, padding: `0 ${vars.space.sm}`, fontSize: vars.fontSize.body })

export const list = style({ margin: 0, padding: 0, listStyle: "none", display: "flex", flexDirection: "column", gap: vars.space.xs })

/** The item's box: its button and its now/next, highlighted together. */
export const row = style({
  position: "relative",
  border: "1px solid transparent",
  borderRadius: vars.radius.md,
  selectors: {
    "&:hover": { background: vars.color.surfaceHover },
    "&:has(> [aria-current='true'])": { background: vars.color.surfaceRaised, borderColor: vars.color.accent },
    "&:has(> :focus-visible)": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "1px" }
  }
})

export const item = style({
  width: "100%",
  display: "flex",
  alignItems: "center",
  gap: vars.space.md,
  padding: vars.space.sm,
  border: "none",
  borderRadius: vars.radius.md,
  background: "transparent",
  color: vars.color.text,
  font: "inherit",
  textAlign: "left",
  cursor: "pointer",
  selectors: {
    // the whole item selects, its now/next included
    "&::after": { content: '""', position: "absolute", inset: 0, borderRadius: vars.radius.md },
    "&:focus-visible": { outline: "none" }
  }
})

/** The item's full width, under the thumbnail too: the list is narrow, and titles need the room. */
export const programmes = style({ padding: `0 ${vars.space.sm} ${vars.space.sm}` })

export const thumb = style({
  // grid: the stand-in of a poster that is missing centres its icon; an image is unaffected
  display: "grid",
  width: "96px",
  flexShrink: 0,
  aspectRatio: "16 / 9",
  objectFit: "cover",
  borderRadius: vars.radius.sm,
  background: vars.color.surfaceRaised
})

export const body = style({ display: "flex", flexDirection: "column", gap: "2px", minWidth: 0 })

export const itemTitle = style({ fontWeight: 600, overflowWrap: "anywhere" })

export const nowPlaying = style({ fontSize: vars.fontSize.small, color: vars.color.accentHover, fontWeight: 600 })

export const icons = style({ display: "flex", gap: vars.space.xs, color: vars.color.textMuted })
