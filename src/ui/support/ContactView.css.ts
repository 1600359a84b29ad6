import { style, styleVariants } from "@vanilla-extract/css"
import { recipe } from "@vanilla-extract/recipes"
import { vars } from "../shared/theme.css.ts"

export const form = style({ display: "flex", flexDirection: "column", gap: vars.space.lg })

export const select = style({ cursor: "pointer" })

export const note = styleVariants({
  failed: {
    margin: 0,
    padding: `${vars.space.sm} ${vars.space.md}`,
    borderRadius: vars.radius.md,
    color: vars.color.text,
    background: vars.color.dangerSurface,
    border: `1px solid ${vars.color.dangerBorder}`
  },
  submitted: {
    margin: 0,
    padding: `${vars.space.sm} ${vars.space.md}`,
    borderRadius: vars.radius.md,
    color: vars.color.text,
    background: vars.color.successSurface
  }
})

/** A block within a panel: what a 'Report a problem' link brought along, or one of the viewer's tickets. */
export const tile = recipe({
  base: { display: "flex", flexDirection: "column", padding: vars.space.lg, borderRadius: vars.radius.md, border: "1px solid" },
  variants: {
    tone: {
      info: { gap: vars.space.sm, background: vars.color.infoSurface, borderColor: vars.color.infoBorder },
      plain: { gap: vars.space.xs, background: vars.color.surfaceRaised, borderColor: vars.color.border }
    }
  }
})

export const attachedHeader = style({ display: "flex", alignItems: "center", justifyContent: "space-between", gap: vars.space.md })

export const attachedTitle = style({ margin: 0, fontSize: vars.fontSize.body, display: "flex", alignItems: "center", gap: vars.space.sm })

export const ticketList = style({ listStyle: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column", gap: vars.space.md })

export const ticketHeader = style({ display: "flex", alignItems: "flex-start", justifyContent: "space-between", gap: vars.space.md })

export const ticketSubject = style({
  margin: 0,
  fontSize: vars.fontSize.body,
  fontWeight: 700,
  overflowWrap: "anywhere",
  whiteSpace: "pre-wrap"
})

export const meta = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, fontVariantNumeric: "tabular-nums" })

const badgeBase = style({
  flex: "none",
  padding: `2px ${vars.space.sm}`,
  borderRadius: vars.radius.pill,
  fontSize: vars.fontSize.small,
  fontWeight: 700,
  whiteSpace: "nowrap"
})

/** Open, In progress, Resolved. */
export const badge = styleVariants({
  1: [badgeBase, { color: vars.color.accentHover, background: vars.color.accentSurface }],
  2: [badgeBase, { color: vars.color.info, background: vars.color.infoSurface }],
  3: [badgeBase, { color: vars.color.success, background: vars.color.successSurface }]
})

export const message = style({ fontSize: vars.fontSize.small })

export const summary = style({ cursor: "pointer", color: vars.color.textMuted, width: "fit-content" })

export const description = style({ margin: `${vars.space.sm} 0 0`, whiteSpace: "pre-wrap", overflowWrap: "anywhere" })
