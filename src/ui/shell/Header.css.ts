import { style } from "@vanilla-extract/css"
import { BREAKPOINTS } from "../../domain/Layout.ts"
import { media, vars } from "../shared/theme.css.ts"

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
  "@media": { [media.belowSmall]: { padding: `0 ${vars.space.lg}` } }
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

export const brandMark = style({ color: vars.color.accent })

export const desktopNav = style({
  flex: 1,
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.lg,
  "@media": { [media.belowSmall]: { display: "none" } }
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
  }
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
  "@media": { [media.belowSmall]: { display: "inline-flex" } }
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
  "@media": { [`screen and (min-width: ${BREAKPOINTS.small}px)`]: { display: "none" } }
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
