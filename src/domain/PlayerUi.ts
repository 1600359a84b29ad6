import { Schema } from "effect"

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
