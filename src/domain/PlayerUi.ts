import * as Schema from "effect/Schema"

/** Player UI flag bit-mask (SPEC §3). */
export const UiFlag = {
  NO_FULLSCREEN: 1,
  NO_VOLUME: 2,
  NO_MUTE: 4,
  LOGO_RIGHT: 8,
  DRAG_HANDLE: 16,
  PLAY_STYLE_2: 32,
  PLAY_STYLE_3: 64,
  THIN_CONTROL_BAR: 128,
  NO_TITLE: 256,
  NO_DESCRIPTION: 512,
  NO_CONTROLS: 1024,
  NO_DURATION: 2048,
  NO_HEADER: 4096,
  AUDIO_ONLY: 8192,
  NO_TOUCH_ZONES: 16384,
  LOGO_BOTTOM: 32768
} as const
export type UiFlagName = keyof typeof UiFlag

export const hasUiFlag = (mask: number, flag: UiFlagName): boolean => (mask & UiFlag[flag]) !== 0

/** Where the logo sits on the picture: top-left unless the flags move it right (8) or down (32768). */
export interface LogoPlacement {
  readonly vertical: "top" | "bottom"
  readonly horizontal: "left" | "right"
}

export const logoPlacement = (mask: number): LogoPlacement => ({
  vertical: hasUiFlag(mask, "LOGO_BOTTOM") ? "bottom" : "top",
  horizontal: hasUiFlag(mask, "LOGO_RIGHT") ? "right" : "left"
})

/** What of the player shows and works, as the UI flags decide it once (SPEC §3). */
export interface PlayerChrome {
  /** the control bar (and with it keyboard shortcuts and the big play button) */
  readonly controls: boolean
  readonly thinControls: boolean
  readonly fullscreen: boolean
  readonly volume: boolean
  readonly mute: boolean
  /** position and duration, or how far behind live */
  readonly duration: boolean
  /** the title header: under the player on the page, over it in fullscreen */
  readonly header: boolean
  /** the title in that header; without it, left to screen readers */
  readonly title: boolean
  readonly description: boolean
  /** the seek bar's thumb shows a grip to drag */
  readonly dragHandle: boolean
  readonly playShape: "round" | "square" | "minimal"
  readonly logo: LogoPlacement
  /** the stream's poster stands in for the picture */
  readonly audioOnly: boolean
  /** left and right thirds seek on a double tap; without them a tap anywhere is the middle's */
  readonly touchZones: boolean
}

export const playerChrome = (mask: number): PlayerChrome => {
  const header = !hasUiFlag(mask, "NO_HEADER")
  return {
    controls: !hasUiFlag(mask, "NO_CONTROLS"),
    thinControls: hasUiFlag(mask, "THIN_CONTROL_BAR"),
    fullscreen: !hasUiFlag(mask, "NO_FULLSCREEN"),
    volume: !hasUiFlag(mask, "NO_VOLUME"),
    mute: !hasUiFlag(mask, "NO_MUTE"),
    duration: !hasUiFlag(mask, "NO_DURATION"),
    header,
    title: header && !hasUiFlag(mask, "NO_TITLE"),
    description: !hasUiFlag(mask, "NO_DESCRIPTION"),
    dragHandle: hasUiFlag(mask, "DRAG_HANDLE"),
    playShape: hasUiFlag(mask, "PLAY_STYLE_2") ? "square" : hasUiFlag(mask, "PLAY_STYLE_3") ? "minimal" : "round",
    logo: logoPlacement(mask),
    audioOnly: hasUiFlag(mask, "AUDIO_ONLY"),
    touchZones: !hasUiFlag(mask, "NO_TOUCH_ZONES")
  }
}

export const MediaMetadata = Schema.Struct({
  media_id: Schema.String,
  site_id: Schema.String,
  sitegroup_id: Schema.String,
  player_id: Schema.String,
  category_id: Schema.String,
  title: Schema.String,
  description: Schema.String,
  logo: Schema.String,
  logo_href: Schema.String,
  duration: Schema.Number,
  live: Schema.Boolean,
  seekable: Schema.Boolean,
  ui: Schema.Number
})
export type MediaMetadata = typeof MediaMetadata.Type
