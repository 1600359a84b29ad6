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

/** Site-setting keys an operator may set, with how to parse a value given as text. */
export const SITE_SETTING_KEYS = Object.keys(DEFAULT_SITE_SETTINGS) as ReadonlyArray<keyof SiteSettings>
