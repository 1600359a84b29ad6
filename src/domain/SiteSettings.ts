import * as Schema from "effect/Schema"
import { DEFAULT_TIMESHIFT_HOURS } from "./Timeshift.ts"

/** Site settings the server owns; every field has a sensible default. */
export class SiteSettings extends Schema.Class<SiteSettings>("SiteSettings")({
  siteName: Schema.String,
  pricePerRewardPoint: Schema.Number,
  subscriptionPrice: Schema.Number,
  scheduleUrl: Schema.String,
  chatUrl: Schema.String,
  hiddenScheduleChannel: Schema.String,
  /** how many hours of each channel viewers can go back to (start-over, seeking back); 0 turns time-shift off */
  timeshiftHours: Schema.Number
}) {}

export const DEFAULT_SITE_SETTINGS = {
  siteName: "StreamHub",
  pricePerRewardPoint: 1,
  subscriptionPrice: 5,
  scheduleUrl: "https://www.livesoccertv.com/schedules/",
  chatUrl: "https://discord.com/",
  hiddenScheduleChannel: "",
  timeshiftHours: DEFAULT_TIMESHIFT_HOURS
} as const satisfies SiteSettings

/**
 * Settings browsers never read as such: the guide's XMLTV address (`guideUrl`, imported on start
 * and every 6 hours; "" for none) may carry a provider's credentials in its query;
 * `discountRates` are the percentages off `subscriptionPrice` a month for plans of 1, 3, 6 and 12
 * months, comma-separated, which the plans endpoint answers as numbers; `maxStreamsPerAccount` is
 * how many streams one account may watch at once from our origin (0 for no limit);
 * `supportEmail` is where a customer's reply to a support mail goes (its Reply-To), "" for none:
 * those mails then tell them to open a ticket from Contact Us instead.
 */
export const DEFAULT_SERVER_SETTINGS = {
  guideUrl: "",
  discountRates: "0,5,10,15",
  maxStreamsPerAccount: 2,
  supportEmail: ""
} as const satisfies Record<string, string | number>

/** `discountRates` as numbers: percentages from 0 to 100; undefined when the text is not such a list. */
export const parseDiscountRates = (text: string): ReadonlyArray<number> | undefined => {
  const parts = text.split(",").map((part) => part.trim())
  if (parts.length === 0 || parts.some((part) => !/^\d+(\.\d+)?$/.test(part))) return undefined
  const rates = parts.map(Number)
  return rates.every((rate) => rate >= 0 && rate <= 100) ? rates : undefined
}

export type ServerSettings = {
  readonly [K in keyof typeof DEFAULT_SERVER_SETTINGS]: (typeof DEFAULT_SERVER_SETTINGS)[K] extends number ? number : string
}

export type SettingKey = keyof SiteSettings | keyof ServerSettings

/** Site-setting keys an operator may set: the browser's, then the server's own. */
export const SITE_SETTING_KEYS = [
  ...Object.keys(DEFAULT_SITE_SETTINGS),
  ...Object.keys(DEFAULT_SERVER_SETTINGS)
] as ReadonlyArray<SettingKey>
