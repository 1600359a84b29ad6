import type { Kysely } from "kysely"
import {
  DEFAULT_SERVER_SETTINGS,
  DEFAULT_SITE_SETTINGS,
  parseDiscountRates,
  type ServerSettings,
  type SettingKey,
  SITE_SETTING_KEYS,
  type SiteSettings
} from "../../domain/SiteSettings.ts"
import { MAX_TIMESHIFT_HOURS } from "../../domain/Timeshift.ts"
import { isEmail, normaliseEmail } from "../../domain/Validation.ts"
import type { Tables } from "../db/schema.ts"
import { getSettings } from "./settingsRepo.ts"

export type SiteSettingsValues = { -readonly [K in keyof SiteSettings]: SiteSettings[K] }
export type SettingsInEffect = SiteSettingsValues & { -readonly [K in keyof ServerSettings]: ServerSettings[K] }
export type SiteSettingKey = SettingKey

const DEFAULTS: SettingsInEffect = { ...DEFAULT_SITE_SETTINGS, ...DEFAULT_SERVER_SETTINGS }

export const isSiteSettingKey = (key: string): key is SiteSettingKey => (SITE_SETTING_KEYS as ReadonlyArray<string>).includes(key)

/**
 * Every setting, the defaults overlaid with what is stored. A stored value of the wrong type
 * (hand-edited, or from an older release) falls back to the default rather than breaking every client.
 */
export async function readSettingsInEffect(db: Kysely<Tables>): Promise<SettingsInEffect> {
  const stored = await getSettings(db)
  const settings: SettingsInEffect = { ...DEFAULTS }
  for (const key of SITE_SETTING_KEYS) {
    const value = stored[key]
    if (typeof value === typeof DEFAULTS[key] && (typeof value !== "number" || Number.isFinite(value))) {
      Object.assign(settings, { [key]: value })
    }
  }
  return settings
}

/** The settings browsers may see: everything but the server's own. */
export async function readSiteSettings(db: Kysely<Tables>): Promise<SiteSettingsValues> {
  const settings = await readSettingsInEffect(db)
  const visible = Object.keys(DEFAULT_SITE_SETTINGS) as ReadonlyArray<keyof SiteSettings>
  return Object.fromEntries(visible.map((key) => [key, settings[key]])) as SiteSettingsValues
}

/** Settings that hold an address, only http(s) ones taken: with whether "" (none) is one too (the footer always links the schedule). */
const URL_SETTINGS: ReadonlyMap<SiteSettingKey, boolean> = new Map<SiteSettingKey, boolean>([
  ["guideUrl", true],
  ["chatUrl", true],
  ["scheduleUrl", false]
])

/** Reads an operator's text as the setting's type; a message when it does not fit. */
export function parseSettingValue(
  key: SiteSettingKey,
  text: string
): { ok: true; value: string | number } | { ok: false; message: string } {
  if (key === "maxStreamsPerAccount") {
    const value = Number(text)
    return /^\s*\d{1,4}\s*$/.test(text)
      ? { ok: true, value }
      : { ok: false, message: `maxStreamsPerAccount must be a whole number of streams, 0 for no limit (got "${text}")` }
  }
  if (key === "timeshiftHours") {
    const value = Number(text)
    return /^\s*\d{1,2}(\.\d+)?\s*$/.test(text) && value <= MAX_TIMESHIFT_HOURS
      ? { ok: true, value }
      : { ok: false, message: `timeshiftHours must be a number of hours from 0 (off) to ${MAX_TIMESHIFT_HOURS} (got "${text}")` }
  }
  if (typeof DEFAULTS[key] === "number") {
    const value = Number(text)
    return text.trim() !== "" && Number.isFinite(value) && value >= 0
      ? { ok: true, value }
      : { ok: false, message: `${key} must be a number of zero or more (got "${text}")` }
  }
  const optional = URL_SETTINGS.get(key)
  if (optional !== undefined) {
    // browsers open these as links (a javascript: or data: one would run in the page), the server fetches guideUrl
    const url = text.trim()
    return (optional && url === "") || isWebUrl(url)
      ? { ok: true, value: url }
      : { ok: false, message: `${key} must be an http(s) URL${optional ? `, or "" for none` : ""} (got "${text}")` }
  }
  if (key === "supportEmail") {
    // kept as mail carries it (an internationalised domain in ASCII), like every account's address
    const address = text.trim()
    if (address === "") return { ok: true, value: "" }
    return isEmail(address)
      ? { ok: true, value: normaliseEmail(address) }
      : { ok: false, message: `supportEmail must be an email address such as support@example.com, or "" for none (got "${text}")` }
  }
  if (key === "discountRates") {
    const rates = parseDiscountRates(text)
    return rates === undefined
      ? { ok: false, message: `discountRates must be percentages from 0 to 100, comma-separated, e.g. "0,5,10,15" (got "${text}")` }
      : { ok: true, value: rates.join(",") }
  }
  return { ok: true, value: text }
}

function isWebUrl(text: string): boolean {
  try {
    const url = new URL(text)
    return url.protocol === "http:" || url.protocol === "https:"
  } catch {
    return false
  }
}
