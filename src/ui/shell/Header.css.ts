import { type StyleRule, style } from "@vanilla-extract/css"
import { BREAKPOINTS } from "../../domain/Layout.ts"
import { media, vars } from "../shared/theme.css.ts"

/** Which bar the header carries: staff have two more links, so theirs needs more room. */
export const customerBar = style({})
export const staffBar = style({})

interface ByUser {
  readonly customer: string
  readonly staff: string
}

const from = (px: number): string => `screen and (min-width: ${px}px)`
const between = (min: number, max: number): string => `screen and (min-width: ${min}px) and (max-width: ${max - 0.02}px)`

/** Below these widths the links move into the burger's panel (the small breakpoint of SPEC §2 for customers). */
const collapsed: ByUser = { customer: media.belowSmall, staff: media.belowMedium }
const expanded: ByUser = { customer: from(BREAKPOINTS.small), staff: from(BREAKPOINTS.medium) }
/** From there up to the next breakpoint the bar fits only when tightened: the brand shows just its mark. */
const compact: ByUser = {
  customer: between(BREAKPOINTS.small, BREAKPOINTS.medium),
  staff: between(BREAKPOINTS.medium, BREAKPOINTS.large)
}

const forBar = (queries: ByUser, rule: StyleRule) => ({
  [queries.customer]: { selectors: { [`${customerBar} &`]: rule } },
  [queries.staff]: { selectors: { [`${staffBar} &`]: rule } }
})

export const header = style({
  position: "sticky",
  top: 0,
  zIndex: 30,
  height: vars.size.headerHeight,
  background: vars.color.headerBackground,
  backdropFilter: "saturate(140%) blur(8px)",
  borderBottom: `1px solid ${vars.color.border}`
})

export const inner = style({
  height: "100%",
  maxWidth: vars.size.content,
  margin: "0 auto",
  padding: `0 ${vars.space.xl}`,
  display: "flex",
  alignItems: "center",
  gap: vars.space.xl,
  "@media": {
    [media.belowSmall]: { padding: `0 ${vars.space.lg}` },
    ...forBar(compact, { padding: `0 ${vars.space.lg}`, gap: vars.space.md })
  }
})

export const brand = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.sm,
  color: vars.color.text,
  fontWeight: 700,
  fontSize: vars.fontSize.large,
  textDecoration: "none",
  whiteSpace: "nowrap"
})

export const brandMark = style({ flexShrink: 0, color: vars.color.accentHover })

/** Hidden from sight only: the link keeps the site's name for assistive technology. */
export const brandName = style({
  "@media": forBar(compact, {
    position: "absolute",
    width: "1px",
    height: "1px",
    overflow: "hidden",
    clipPath: "inset(50%)",
    whiteSpace: "nowrap"
  })
})

export const desktopNav = style({
  flex: 1,
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.lg,
  "@media": {
    ...forBar(collapsed, { display: "none" }),
    ...forBar(compact, { gap: vars.space.sm })
  }
})

export const navList = style({ display: "flex", alignItems: "center", gap: vars.space.xs, margin: 0, padding: 0, listStyle: "none" })

export const navLink = style({
  display: "inline-flex",
  alignItems: "center",
  height: "36px",
  padding: `0 ${vars.space.md}`,
  borderRadius: vars.radius.md,
  color: vars.color.textMuted,
  fontWeight: 600,
  textDecoration: "none",
  whiteSpace: "nowrap",
  background: "transparent",
  border: "none",
  cursor: "pointer",
  selectors: {
    "&:hover": { color: vars.color.text, background: vars.color.surfaceHover },
    "&[aria-current='page'], &[data-active='true']": { color: vars.color.text, background: vars.color.surfaceRaised }
  },
  "@media": forBar(compact, { padding: `0 ${vars.space.sm}`, fontSize: vars.fontSize.small })
})

export const burger = style({
  display: "none",
  marginLeft: "auto",
  width: "44px",
  height: "44px",
  alignItems: "center",
  justifyContent: "center",
  borderRadius: vars.radius.md,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surfaceRaised,
  cursor: "pointer",
  "@media": forBar(collapsed, { display: "inline-flex" })
})

export const mobilePanel = style({
  position: "absolute",
  top: "100%",
  left: 0,
  right: 0,
  maxHeight: `calc(100vh - ${vars.size.headerHeight})`,
  overflowY: "auto",
  padding: vars.space.lg,
  background: vars.color.surface,
  borderBottom: `1px solid ${vars.color.border}`,
  boxShadow: vars.shadow.overlay,
  // a panel left open while the window grows past the breakpoint would duplicate the bar
  "@media": forBar(expanded, { display: "none" })
})

export const mobileList = style({ margin: 0, padding: 0, listStyle: "none", display: "flex", flexDirection: "column", gap: vars.space.xs })

export const mobileHeading = style({
  margin: `${vars.space.md} 0 ${vars.space.xs}`,
  padding: `0 ${vars.space.md}`,
  fontSize: vars.fontSize.small,
  textTransform: "uppercase",
  letterSpacing: "0.06em",
  color: vars.color.textMuted
})

export const mobileLink = style([navLink, { width: "100%", height: "44px", fontSize: vars.fontSize.body }])
