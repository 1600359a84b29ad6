import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const wrapper = style({ position: "relative" })

export const chevron = style({
  marginLeft: vars.space.xs,
  transition: "transform 120ms ease",
  selectors: { "[aria-expanded='true'] > &": { transform: "rotate(180deg)" } }
})

/** The list that drops down from its button, over the page; not a panel of the page. */
export const dropdown = style({
  position: "absolute",
  top: "calc(100% + 6px)",
  right: 0,
  minWidth: "200px",
  margin: 0,
  padding: vars.space.xs,
  listStyle: "none",
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  boxShadow: vars.shadow.overlay,
  zIndex: 35
})

export const dropdownStart = style({ left: 0, right: "auto" })

export const item = style({
  display: "flex",
  alignItems: "center",
  width: "100%",
  minHeight: "40px",
  padding: `0 ${vars.space.md}`,
  borderRadius: vars.radius.sm,
  border: "none",
  background: "transparent",
  color: vars.color.text,
  textAlign: "left",
  textDecoration: "none",
  cursor: "pointer",
  selectors: {
    "&:hover, &:focus-visible": { background: vars.color.surfaceHover },
    "&[aria-current='page']": { color: vars.color.accentHover, fontWeight: 600 }
  }
})
