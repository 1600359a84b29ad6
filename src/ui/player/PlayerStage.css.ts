import { globalStyle, style, styleVariants } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const frame = style({
  position: "relative",
  width: "100%",
  aspectRatio: "16 / 9",
  background: vars.player.picture,
  borderRadius: vars.radius.lg,
  overflow: "hidden",
  border: `1px solid ${vars.color.border}`,
  outline: "none",
  isolation: "isolate",
  containerType: "inline-size",
  userSelect: "none",
  WebkitTapHighlightColor: "transparent",
  selectors: {
    "&:focus-visible": { boxShadow: `0 0 0 2px ${vars.color.focus}` },
    "&:fullscreen": { borderRadius: 0, border: "none", aspectRatio: "auto", width: "100vw", height: "100vh" },
    // the pointer goes with the controls while something plays
    "&[data-controls='hidden']": { cursor: "none" }
  }
})

export const video = style({
  position: "absolute",
  inset: 0,
  width: "100%",
  height: "100%",
  display: "block",
  background: vars.player.picture
})

/** audio-only streams keep the element playing but show the artwork instead */
export const artwork = style({ position: "absolute", inset: 0, width: "100%", height: "100%", objectFit: "cover", opacity: 0.5 })

export const surface = style({ position: "absolute", inset: 0 })

export const overlay = style({
  position: "absolute",
  inset: 0,
  display: "grid",
  placeItems: "center",
  // room at the bottom for the control bar, so a notice never sits under it
  padding: `${vars.space.lg} ${vars.space.lg} 60px`,
  textAlign: "center",
  pointerEvents: "none",
  "@container": { "(max-width: 480px)": { padding: `${vars.space.sm} ${vars.space.sm} 52px` } }
})

export const box = style({
  pointerEvents: "auto",
  maxWidth: "420px",
  padding: vars.space.xl,
  borderRadius: vars.radius.md,
  background: vars.player.panel,
  border: `1px solid ${vars.color.border}`,
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.md,
  "@container": { "(max-width: 480px)": { padding: `${vars.space.sm} ${vars.space.md}`, gap: vars.space.xs } }
})

export const errorBox = style([box, { borderColor: vars.color.danger }])

/** A passing word at the top of the picture (a link's moment could not be played). */
export const notice = style({
  position: "absolute",
  top: vars.space.md,
  insetInline: vars.space.md,
  marginInline: "auto",
  width: "fit-content",
  maxWidth: `calc(100% - 2 * ${vars.space.md})`,
  padding: `${vars.space.xs} ${vars.space.md}`,
  borderRadius: vars.radius.md,
  background: vars.player.panel,
  border: `1px solid ${vars.color.border}`,
  color: vars.player.onPicture,
  fontSize: vars.fontSize.small,
  textAlign: "center",
  pointerEvents: "none"
})

export const boxTitle = style({
  margin: 0,
  fontWeight: 700,
  fontSize: vars.fontSize.large,
  "@container": { "(max-width: 480px)": { fontSize: vars.fontSize.body } }
})

export const boxText = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small })

/** Why a refused stream does not play, under the player: in the page's flow, at any width. */
export const accessBox = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "flex-start",
  gap: vars.space.sm,
  padding: vars.space.lg,
  borderRadius: vars.radius.md,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.danger}`
})

export const boxList = style({
  margin: 0,
  paddingInlineStart: vars.space.lg,
  textAlign: "start",
  fontSize: vars.fontSize.small,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs
})

export const header = style({
  position: "absolute",
  insetInline: 0,
  top: 0,
  padding: `${vars.space.md} ${vars.space.lg} ${vars.space.xl}`,
  background: `linear-gradient(${vars.player.topScrim}, transparent)`,
  fontWeight: 600,
  whiteSpace: "nowrap",
  overflow: "hidden",
  textOverflow: "ellipsis",
  transition: "opacity 200ms ease",
  pointerEvents: "none"
})

export const bigPlay = styleVariants(
  {
    round: { borderRadius: "50%", width: "72px", height: "72px" },
    square: { borderRadius: vars.radius.md, width: "72px", height: "56px" },
    minimal: { borderRadius: "50%", width: "52px", height: "52px", background: "transparent !important" }
  },
  (shape) => [
    {
      pointerEvents: "auto",
      display: "grid",
      placeItems: "center",
      border: "none",
      color: vars.player.onPicture,
      background: vars.player.highlight,
      cursor: "pointer",
      boxShadow: vars.shadow.overlay,
      selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "3px" } }
    },
    shape
  ]
)

globalStyle(`${frame}[data-controls='hidden'] ${header}`, { opacity: 0 })
// the title makes room for a logo in its corner
globalStyle(`${frame}[data-logo='top-left'] ${header}`, { paddingLeft: "148px" })
globalStyle(`${frame}[data-logo='top-right'] ${header}`, { paddingRight: "148px" })

// the shared button recipe is sized for pages; inside a small player it takes less room
globalStyle(`${box} > a, ${box} > button`, {
  "@container": { "(max-width: 480px)": { minHeight: "32px", padding: `0 ${vars.space.md}`, fontSize: vars.fontSize.small } }
})
