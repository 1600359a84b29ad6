import { keyframes, style } from "@vanilla-extract/css"
import { recipe } from "@vanilla-extract/recipes"
import { media, vars } from "./theme.css.ts"

/**
 * A raised block of a page: a form, a table, a note, a group of figures. Its variants live here
 * rather than in a page's style file: an override from another file can lose to this one by
 * stylesheet order once pages load separately.
 */
export const panel = recipe({
  base: {
    background: vars.color.surface,
    border: `1px solid ${vars.color.border}`,
    borderRadius: vars.radius.lg,
    display: "flex",
    flexDirection: "column",
    minWidth: 0
  },
  variants: {
    spacing: {
      /** forms: room around every field */
      roomy: { padding: vars.space.xl, gap: vars.space.lg, "@media": { [media.belowSmall]: { padding: vars.space.lg } } },
      regular: { padding: vars.space.xl, gap: vars.space.md, "@media": { [media.belowSmall]: { padding: vars.space.lg } } },
      /** tables and staff figures: as much as fits, on a phone above all */
      compact: { padding: vars.space.lg, gap: vars.space.md, "@media": { [media.belowSmall]: { padding: vars.space.md } } },
      /** a message that is the whole page */
      spacious: { padding: vars.space.xxl, gap: vars.space.md, "@media": { [media.belowSmall]: { padding: vars.space.xl } } }
    },
    /** `raised`: the one card a page is, lifted off the background */
    elevation: { flat: {}, raised: { boxShadow: vars.shadow.raised } },
    /** `split`: its text beside its action where there is room, stacked on a phone */
    layout: {
      stack: {},
      split: {
        flexDirection: "row",
        alignItems: "center",
        justifyContent: "space-between",
        gap: vars.space.lg,
        "@media": { [media.belowSmall]: { flexDirection: "column", alignItems: "stretch" } }
      }
    }
  },
  defaultVariants: { spacing: "regular", elevation: "flat", layout: "stack" }
})

/** A page's own heading, whatever frame the page has. */
export const pageTitle = style({ margin: 0, fontSize: vars.fontSize.title, lineHeight: 1.25 })

export const panelTitle = style({ margin: 0, fontSize: vars.fontSize.large, lineHeight: 1.3 })

/** A panel's title and the line under it that says what the panel is for. */
export const panelHeader = style({ display: "flex", flexDirection: "column", gap: vars.space.xs })

/** Text that explains rather than informs: hints, notes, what a figure means. */
export const muted = style({ margin: 0, color: vars.color.textMuted })

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

/** A page's whole-page message: nothing to show yet, or what failed, with its action below. */
export const notice = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.md,
  margin: 0,
  padding: vars.space.xxl,
  textAlign: "center",
  background: vars.color.surface,
  border: `1px dashed ${vars.color.border}`,
  borderRadius: vars.radius.lg,
  "@media": { [media.belowSmall]: { padding: vars.space.xl } }
})

/** There is nothing to show: said, quietly, where the content would be; `inset` within a panel. */
export const empty = recipe({
  base: [notice, { color: vars.color.textMuted }],
  variants: { inset: { true: { padding: vars.space.xl, background: "none", borderRadius: vars.radius.md } } }
})

export const noticeText = style({ margin: 0 })

const shimmer = keyframes({ "0%": { opacity: 0.55 }, "50%": { opacity: 1 }, "100%": { opacity: 0.55 } })

/** The custom property that gives a placeholder block the height of what it stands for. */
export const SKELETON_HEIGHT = "--skeleton-height"

/** A placeholder of content on its way: a block of a given height, or a stream card's shape. */
export const skeleton = recipe({
  base: {
    borderRadius: vars.radius.md,
    background: vars.color.surfaceRaised,
    animation: `${shimmer} 1.4s ease-in-out infinite`,
    "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } }
  },
  variants: {
    shape: {
      block: { height: `var(${SKELETON_HEIGHT}, 48px)` },
      card: { aspectRatio: "16 / 12", borderRadius: vars.radius.lg }
    }
  },
  defaultVariants: { shape: "block" }
})
