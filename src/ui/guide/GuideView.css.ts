import { keyframes, style } from "@vanilla-extract/css"
import { media, vars } from "../shared/theme.css.ts"

export const page = style({ display: "flex", flexDirection: "column", gap: vars.space.xl })

export const intro = style({ display: "flex", flexDirection: "column", gap: vars.space.xs })

export const title = style({ margin: 0, fontSize: vars.fontSize.title, lineHeight: 1.25 })

export const lead = style({ margin: 0, color: vars.color.textMuted })

export const toolbar = style({
  display: "flex",
  flexWrap: "wrap",
  alignItems: "flex-end",
  gap: vars.space.lg,
  "@media": { [media.belowSmall]: { flexDirection: "column", alignItems: "stretch", gap: vars.space.md } }
})

export const control = style({ display: "flex", flexDirection: "column", gap: vars.space.xs })

export const select = style({ minWidth: "260px", cursor: "pointer", "@media": { [media.belowSmall]: { minWidth: 0 } } })

export const searchControl = style({
  flex: "1 1 320px",
  maxWidth: "520px",
  "@media": { [media.belowSmall]: { flex: "none", maxWidth: "none" } }
})

const shimmer = keyframes({ "0%": { opacity: 0.55 }, "50%": { opacity: 1 }, "100%": { opacity: 0.55 } })

export const skeletons = style({ display: "flex", flexDirection: "column", gap: vars.space.lg })

export const skeleton = style({
  height: "180px",
  borderRadius: vars.radius.lg,
  background: vars.color.surfaceRaised,
  animation: `${shimmer} 1.4s ease-in-out infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } }
})

export const empty = style({
  margin: 0,
  padding: vars.space.xxl,
  textAlign: "center",
  color: vars.color.textMuted,
  background: vars.color.surface,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.lg
})

export const notice = style([
  empty,
  { display: "flex", flexDirection: "column", alignItems: "center", gap: vars.space.md, color: vars.color.text }
])

export const noticeText = style({ margin: 0 })

export const results = style({ display: "flex", flexDirection: "column", gap: vars.space.md })

export const resultsTitle = style({ margin: 0, fontSize: vars.fontSize.large })

export const summary = style({ margin: 0, color: vars.color.textMuted })

export const resultList = style({
  display: "grid",
  gridTemplateColumns: "repeat(auto-fill, minmax(260px, 1fr))",
  gap: vars.space.sm,
  margin: 0,
  padding: 0,
  listStyle: "none",
  "@media": { [media.belowSmall]: { gridTemplateColumns: "minmax(0, 1fr)" } }
})
