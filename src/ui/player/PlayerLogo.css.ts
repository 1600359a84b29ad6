import { style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

/** A corner mark over the picture; the UI flags pick the corner (SPEC §3). */
export const logo = style({
  position: "absolute",
  zIndex: 1,
  display: "block",
  lineHeight: 0,
  borderRadius: vars.radius.sm,
  opacity: 0.85,
  transition: "opacity 200ms ease",
  selectors: {
    "&:hover, &:focus-visible": { opacity: 1 },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" },
    "&[data-vertical='top']": { top: vars.space.md },
    "&[data-vertical='bottom']": { bottom: vars.space.md },
    // clear of the control bar's row and seek bar
    "&[data-vertical='bottom'][data-clears-controls='true']": { bottom: "76px" },
    "&[data-horizontal='left']": { left: vars.space.md },
    "&[data-horizontal='right']": { right: vars.space.md }
  },
  "@container": { "(max-width: 400px)": { opacity: 0.7 } }
})

export const image = style({
  display: "block",
  height: "36px",
  width: "auto",
  maxWidth: "120px",
  objectFit: "contain",
  borderRadius: vars.radius.sm,
  "@container": { "(max-width: 400px)": { height: "24px", maxWidth: "80px" } }
})
