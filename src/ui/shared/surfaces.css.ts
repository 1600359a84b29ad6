import { keyframes, style } from "@vanilla-extract/css"
import { media, vars } from "./theme.css.ts"

/** A raised block of a page: a form, a table, a group of figures. */
export const panel = style({
  padding: vars.space.xl,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.md,
  minWidth: 0,
  "@media": { [media.belowSmall]: { padding: vars.space.lg } }
})

export const panelTitle = style({ margin: 0, fontSize: vars.fontSize.large })

/** Headline figures: each a card, its label under its value (the value is read first). */
export const stats = style({ display: "grid", gridTemplateColumns: "repeat(auto-fit, minmax(150px, 1fr))", gap: vars.space.md, margin: 0 })

export const stat = style({
  display: "flex",
  flexDirection: "column-reverse",
  gap: vars.space.xs,
  padding: vars.space.lg,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg
})

export const statLabel = style({ color: vars.color.textMuted, fontSize: vars.fontSize.small, fontWeight: 600 })

export const statValue = style({
  margin: 0,
  fontSize: vars.fontSize.display,
  fontWeight: 700,
  lineHeight: 1.1,
  fontVariantNumeric: "tabular-nums"
})

/** What failed to load, beside its Try again. */
export const alert = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.md,
  padding: vars.space.md,
  background: vars.color.dangerSurface,
  border: `1px solid ${vars.color.dangerBorder}`,
  borderRadius: vars.radius.md
})

export const alertText = style({ margin: 0 })

/** A page's whole-page message: nothing to show yet, or what failed, with its action below. */
export const notice = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.md,
  padding: vars.space.xxl,
  textAlign: "center",
  background: vars.color.surface,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  "@media": { [media.belowSmall]: { padding: vars.space.xl } }
})

export const noticeText = style({ margin: 0 })

const shimmer = keyframes({ "0%": { opacity: 0.55 }, "50%": { opacity: 1 }, "100%": { opacity: 0.55 } })

/** A placeholder of content on its way; give it the height of what it stands for. */
export const skeleton = style({
  borderRadius: vars.radius.md,
  background: vars.color.surfaceRaised,
  animation: `${shimmer} 1.4s ease-in-out infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } }
})
