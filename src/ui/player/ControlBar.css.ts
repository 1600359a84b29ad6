import { globalStyle, style } from "@vanilla-extract/css"
import { vars } from "../shared/theme.css.ts"

export const bar = style({
  position: "absolute",
  insetInline: 0,
  bottom: 0,
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
  padding: `${vars.space.xxl} ${vars.space.md} ${vars.space.sm}`,
  background: `linear-gradient(transparent, ${vars.player.bottomScrim})`,
  transition: "opacity 200ms ease, transform 200ms ease",
  selectors: {
    "&[data-shown='false']": { opacity: 0, transform: "translateY(8px)", pointerEvents: "none" },
    "&[data-thin='true']": { paddingTop: vars.space.lg, paddingBottom: vars.space.xs }
  },
  "@media": { "(prefers-reduced-motion: reduce)": { transition: "none" } },
  "@container": { "(max-width: 400px)": { paddingInline: vars.space.sm } }
})

export const row = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.xs,
  minWidth: 0,
  "@container": { "(max-width: 400px)": { gap: "2px" } }
})

export const spacer = style({ flex: 1 })

export const iconButton = style({
  display: "grid",
  placeItems: "center",
  flexShrink: 0,
  width: "40px",
  height: "40px",
  padding: 0,
  border: "none",
  borderRadius: vars.radius.md,
  background: "transparent",
  color: vars.player.onPicture,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled)": { background: vars.player.control },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "-2px" },
    "&:disabled": { opacity: 0.45, cursor: "not-allowed" },
    "&[aria-pressed='true']": { color: vars.color.accentHover }
  },
  "@container": { "(max-width: 400px)": { width: "32px", height: "32px" } }
})

export const volume = style({
  display: "flex",
  alignItems: "flex-end",
  gap: "3px",
  height: "40px",
  padding: `10px ${vars.space.sm}`,
  borderRadius: vars.radius.md,
  cursor: "pointer",
  touchAction: "none",
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "-2px" } },
  "@container": { "(max-width: 400px)": { gap: "2px", paddingInline: vars.space.xs } }
})

export const tick = style({
  width: "5px",
  borderRadius: "1px",
  background: vars.player.track,
  selectors: { "&[data-lit='true']": { background: vars.player.onPicture } },
  "@container": { "(max-width: 400px)": { width: "4px" } }
})

/** How much of the seek bar lies behind the playhead, set on the element (percent). */
export const SEEK_FILLED = "--seek-filled"

const grip = {
  width: "14px",
  height: "22px",
  borderRadius: vars.radius.sm,
  border: `1px solid ${vars.player.thumbEdge}`,
  // two ridges to take hold of
  background: `linear-gradient(90deg, transparent 4px, ${vars.player.thumbGrip} 4px 5px, transparent 5px 8px, ${vars.player.thumbGrip} 8px 9px, transparent 9px) ${vars.player.onPicture}`,
  boxShadow: vars.shadow.overlay,
  cursor: "grab"
} as const

export const seek = style({
  width: "100%",
  margin: 0,
  accentColor: vars.color.accent,
  cursor: "pointer",
  height: "16px",
  selectors: {
    // DRAG_HANDLE (SPEC §3): a drawn track and a grip for a thumb
    "&[data-handle='true']": {
      appearance: "none",
      WebkitAppearance: "none",
      height: "22px",
      background: "transparent"
    },
    "&[data-handle='true']::-webkit-slider-runnable-track": {
      height: "4px",
      borderRadius: vars.radius.pill,
      background: `linear-gradient(90deg, ${vars.color.accent} var(${SEEK_FILLED}, 0%), ${vars.player.track} var(${SEEK_FILLED}, 0%))`
    },
    "&[data-handle='true']::-moz-range-track": {
      height: "4px",
      borderRadius: vars.radius.pill,
      background: `linear-gradient(90deg, ${vars.color.accent} var(${SEEK_FILLED}, 0%), ${vars.player.track} var(${SEEK_FILLED}, 0%))`
    },
    "&[data-handle='true']::-webkit-slider-thumb": { WebkitAppearance: "none", marginTop: "-9px", ...grip },
    "&[data-handle='true']::-moz-range-thumb": grip,
    "&[data-handle='true']:active::-webkit-slider-thumb": { cursor: "grabbing" },
    "&[data-handle='true']:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" }
  }
})

/** The seek bar with the guide's programmes above it. */
export const seekArea = style({ display: "flex", flexDirection: "column", gap: "2px" })

/** The window's programmes, each placed along the seek bar from its start to its end. */
export const programmes = style({
  position: "relative",
  height: "20px",
  "@container": { "(max-width: 400px)": { height: "16px" } }
})

export const programme = style({
  position: "absolute",
  top: 0,
  bottom: 0,
  display: "flex",
  alignItems: "center",
  minWidth: 0,
  margin: 0,
  padding: `0 ${vars.space.xs}`,
  border: "none",
  // the boundary mark: where the programme begins
  borderInlineStart: `2px solid ${vars.player.onPictureMuted}`,
  background: vars.player.panel,
  color: vars.player.onPictureMuted,
  font: "inherit",
  fontSize: "12px",
  lineHeight: 1,
  textAlign: "start",
  overflow: "hidden",
  "@container": { "(max-width: 400px)": { fontSize: "11px", paddingInline: "3px" } },
  selectors: {
    "button&": { cursor: "pointer" },
    "button&:hover": { background: vars.player.controlHover, color: vars.player.onPicture },
    "&[data-current='true']": { color: vars.player.onPicture, borderInlineStartColor: vars.color.accentHover },
    // a programme already running when the window begins has no boundary of its own in it
    "span&": { borderInlineStartColor: "transparent" }
  }
})

export const programmeTitle = style({ whiteSpace: "nowrap", overflow: "hidden", textOverflow: "ellipsis" })

/** Catch up: a chip beside "Go to live", lit while the picture runs faster. */
export const catchUp = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  height: "28px",
  padding: `0 ${vars.space.sm}`,
  border: "none",
  borderRadius: vars.radius.sm,
  background: vars.player.control,
  color: vars.player.onPicture,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  whiteSpace: "nowrap",
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.player.controlHover },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}` },
    "&[aria-pressed='true']": { background: vars.player.highlight }
  },
  "@container": { "(max-width: 400px)": { paddingInline: vars.space.xs } }
})

export const live = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  height: "28px",
  padding: `0 ${vars.space.sm}`,
  border: "none",
  borderRadius: vars.radius.sm,
  background: "transparent",
  color: vars.player.onPicture,
  fontSize: vars.fontSize.small,
  fontWeight: 700,
  letterSpacing: "0.04em",
  whiteSpace: "nowrap",
  selectors: {
    "button&": { cursor: "pointer", background: vars.player.control },
    "button&:hover": { background: vars.player.controlHover },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}` }
  },
  "@container": { "(max-width: 400px)": { paddingInline: vars.space.xs } }
})

export const dot = style({
  width: "8px",
  height: "8px",
  borderRadius: "50%",
  background: vars.player.live,
  selectors: { [`${live}[data-at-edge='false'] &`]: { background: vars.player.behindLive } }
})

export const readout = style({
  minWidth: 0,
  fontSize: vars.fontSize.small,
  color: vars.player.onPictureMuted,
  fontVariantNumeric: "tabular-nums",
  whiteSpace: "nowrap",
  overflow: "hidden",
  textOverflow: "ellipsis"
})

/** the words a tiny player leaves out ("behind live" becomes "behind") */
export const optional = style({ "@container": { "(max-width: 400px)": { display: "none" } } })

/** "Go to live" becomes "Live" in a tiny player */
export const capitalOnTiny = style({ "@container": { "(max-width: 400px)": { textTransform: "capitalize" } } })

globalStyle(`${bar} svg`, { display: "block" })
