import { Schema } from "effect"

/** Site settings the server owns; every field has a sensible default. */
export class SiteSettings extends Schema.Class<SiteSettings>("SiteSettings")({
  siteName: Schema.String,
  pricePerRewardPoint: Schema.Number,
  subscriptionPrice: Schema.Number,
  scheduleUrl: Schema.String,
  chatUrl: Schema.String,
  hiddenScheduleChannel: Schema.String
}) {}

export const DEFAULT_SITE_SETTINGS = {
  siteName: "StreamHub",
  pricePerRewardPoint: 1,
  subscriptionPrice: 5,
  scheduleUrl: "https://www.livesoccertv.com/schedules/",
  chatUrl: "https://discord.com/",
  hiddenScheduleChannel: ""
} as const satisfies SiteSettings

/**
 * Settings only the server reads, never sent to browsers: the guide's XMLTV address
 * (`guideUrl`, imported on start and every 6 hours; "" for none) may carry a provider's
 * credentials in its query.
 */
export const DEFAULT_SERVER_SETTINGS = {
  guideUrl: ""
} as const satisfies Record<string, string | number>

export type ServerSettings = { readonly [K in keyof typeof DEFAULT_SERVER_SETTINGS]: string }

export type SettingKey = keyof SiteSettings | keyof ServerSettings

/** Site-setting keys an operator may set: the browser's, then the server's own. */
export const SITE_SETTING_KEYS = [
  ...Object.keys(DEFAULT_SITE_SETTINGS),
  ...Object.keys(DEFAULT_SERVER_SETTINGS)
] as ReadonlyArray<SettingKey>
