import { createGlobalTheme, createThemeContract, globalStyle } from "@vanilla-extract/css"
import { BREAKPOINTS, HEADER_HEIGHT } from "../../domain/Layout.ts"

/** The one theme contract every style reads from. */
export const vars = createThemeContract({
  color: {
    background: null,
    surface: null,
    surfaceRaised: null,
    surfaceHover: null,
    border: null,
    text: null,
    textMuted: null,
    accent: null,
    accentHover: null,
    accentSurface: null,
    accentGlow: null,
    accentRing: null,
    onAccent: null,
    danger: null,
    dangerSurface: null,
    dangerBorder: null,
    flaggedStrong: null,
    flaggedLight: null,
    info: null,
    infoSurface: null,
    infoBorder: null,
    success: null,
    successSurface: null,
    focus: null,
    overlay: null,
    scrim: null,
    headerBackground: null,
    badgeBackground: null
  },
  font: { body: null, mono: null },
  fontSize: { small: null, body: null, large: null, title: null, display: null },
  space: { xs: null, sm: null, md: null, lg: null, xl: null, xxl: null },
  radius: { sm: null, md: null, lg: null, pill: null },
  shadow: { raised: null, overlay: null },
  size: { headerHeight: null, content: null },
  /** The player draws over a picture of any colour, so its colours are its own. */
  player: {
    picture: null,
    onPicture: null,
    onPictureMuted: null,
    topScrim: null,
    bottomScrim: null,
    panel: null,
    control: null,
    controlHover: null,
    track: null,
    thumbEdge: null,
    thumbGrip: null,
    live: null,
    behindLive: null,
    highlight: null
  }
})

createGlobalTheme(":root", vars, {
  color: {
    background: "#0d1117",
    surface: "#151b23",
    surfaceRaised: "#1d2530",
    surfaceHover: "#243040",
    border: "#2b3644",
    text: "#e6edf3",
    textMuted: "#9aa8b6",
    /** Deep enough for white button text at 5:1 (WCAG AA); still the same blue. */
    accent: "#1a66e0",
    accentHover: "#5b9dff",
    accentSurface: "rgba(61, 139, 253, 0.14)",
    accentGlow: "rgba(61, 139, 253, 0.16)",
    accentRing: "rgba(61, 139, 253, 0.25)",
    onAccent: "#ffffff",
    danger: "#ff5d5d",
    dangerSurface: "rgba(255, 93, 93, 0.14)",
    dangerBorder: "rgba(255, 93, 93, 0.35)",
    /** A table row that needs attention now (an account watching from several places), and one to keep an eye on. */
    flaggedStrong: "rgba(255, 60, 60, 0.32)",
    flaggedLight: "rgba(255, 93, 93, 0.12)",
    info: "#2ec4b6",
    infoSurface: "rgba(46, 196, 182, 0.14)",
    infoBorder: "rgba(46, 196, 182, 0.35)",
    success: "#3ecf8e",
    successSurface: "rgba(62, 207, 142, 0.14)",
    focus: "#8ab4ff",
    /** Behind dialogs. */
    overlay: "rgba(3, 6, 10, 0.72)",
    /** Over a picture, to keep an icon on it readable. */
    scrim: "rgba(0, 0, 0, 0.35)",
    /** The background, nearly opaque: the sticky header blurs what scrolls beneath it. */
    headerBackground: "rgba(13, 17, 23, 0.92)",
    /** A label over a picture. */
    badgeBackground: "rgba(13, 17, 23, 0.85)"
  },
  font: {
    body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif",
    mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace"
  },
  fontSize: { small: "0.8125rem", body: "0.9375rem", large: "1.125rem", title: "1.5rem", display: "2rem" },
  space: { xs: "4px", sm: "8px", md: "12px", lg: "16px", xl: "24px", xxl: "40px" },
  radius: { sm: "4px", md: "8px", lg: "12px", pill: "999px" },
  shadow: {
    raised: "0 1px 2px rgba(0, 0, 0, 0.4), 0 4px 12px rgba(0, 0, 0, 0.25)",
    overlay: "0 12px 40px rgba(0, 0, 0, 0.55)"
  },
  size: { headerHeight: `${HEADER_HEIGHT}px`, content: "1680px" },
  player: {
    picture: "#000000",
    onPicture: "#ffffff",
    onPictureMuted: "rgba(255, 255, 255, 0.85)",
    topScrim: "rgba(0, 0, 0, 0.7)",
    bottomScrim: "rgba(0, 0, 0, 0.8)",
    panel: "rgba(13, 17, 23, 0.92)",
    control: "rgba(255, 255, 255, 0.14)",
    controlHover: "rgba(255, 255, 255, 0.24)",
    track: "rgba(255, 255, 255, 0.3)",
    thumbEdge: "rgba(0, 0, 0, 0.35)",
    thumbGrip: "#8b949e",
    live: "#ff3b3b",
    behindLive: "#8b949e",
    highlight: "rgba(61, 139, 253, 0.9)"
  }
})

/** Media queries for "below N px" (SPEC §9 breakpoints). */
const below = (px: number): string => `screen and (max-width: ${px - 0.02}px)`
export const media = {
  belowSmall: below(BREAKPOINTS.small),
  belowMedium: below(BREAKPOINTS.medium),
  belowLarge: below(BREAKPOINTS.large),
  belowXlarge: below(BREAKPOINTS.xlarge)
} as const

globalStyle("*, *::before, *::after", { boxSizing: "border-box" })

globalStyle("html", { colorScheme: "dark", WebkitTextSizeAdjust: "100%" })

globalStyle("body", {
  margin: 0,
  minHeight: "100vh",
  background: vars.color.background,
  color: vars.color.text,
  fontFamily: vars.font.body,
  fontSize: vars.fontSize.body,
  lineHeight: 1.5,
  WebkitFontSmoothing: "antialiased"
})

globalStyle("a", { color: vars.color.accentHover })

globalStyle(":focus-visible", { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" })

globalStyle("button, input, textarea, select", { font: "inherit", color: "inherit" })

globalStyle("img", { maxWidth: "100%", display: "block" })
