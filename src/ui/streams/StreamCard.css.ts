import { globalStyle, style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const card = style({
  position: "relative",
  height: "100%",
  display: "flex",
  flexDirection: "column",
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  overflow: "hidden",
  transition: "border-color 120ms ease, transform 120ms ease",
  selectors: { "&:hover, &:focus-within": { borderColor: vars.color.accent } }
})

export const choose = style({
  display: "flex",
  flexDirection: "column",
  padding: 0,
  border: "none",
  background: "transparent",
  textAlign: "left",
  cursor: "pointer",
  selectors: {
    // the whole card chooses, now/next included, while the tag links above it stay their own
    "&::after": { content: '""', position: "absolute", inset: 0, borderRadius: vars.radius.lg },
    "&:focus-visible": { outline: "none" },
    "&:focus-visible::after": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "-2px" }
  }
})

export const media = style({ position: "relative", width: "100%", aspectRatio: "16 / 9", background: vars.color.surfaceRaised })

export const image = style({ position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "cover" })

export const play = style({
  position: "absolute",
  inset: 0,
  display: "grid",
  placeItems: "center",
  color: vars.color.onAccent,
  background: vars.color.scrim,
  opacity: 0,
  transition: "opacity 120ms ease",
  selectors: { [`${choose}:hover &, ${choose}:focus-visible &`]: { opacity: 1 } }
})

export const badge = style({
  position: "absolute",
  // over the poster, yet a click on it still reaches the card's button beneath
  pointerEvents: "none",
  top: vars.space.sm,
  left: vars.space.sm,
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.badgeBackground,
  color: vars.color.danger,
  fontSize: vars.fontSize.small,
  fontWeight: 700
})

export const lock = style({
  position: "absolute",
  pointerEvents: "none",
  top: vars.space.sm,
  right: vars.space.sm,
  display: "flex",
  alignItems: "center",
  gap: vars.space.xs,
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  background: vars.color.badgeBackground,
  color: vars.color.text,
  fontSize: vars.fontSize.small,
  fontWeight: 700
})

export const title = style({
  padding: `${vars.space.md} ${vars.space.md} ${vars.space.xs}`,
  fontWeight: 700,
  fontSize: vars.fontSize.body,
  color: vars.color.text
})

export const programmes = style({ padding: `${vars.space.xs} ${vars.space.md}` })

// Right under the title, not at the card's foot: when a neighbour's now/next arrives and the row
// grows, a card without a guide keeps everything where it was.
export const tags = style({
  position: "relative",
  zIndex: 1,
  pointerEvents: "none",
  padding: `${vars.space.xs} ${vars.space.md} ${vars.space.md}`
})

globalStyle(`${tags} a`, { pointerEvents: "auto" })
