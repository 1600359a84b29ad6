import type { Kysely } from "kysely"
import { DEFAULT_SITE_SETTINGS, SITE_SETTING_KEYS, type SiteSettings } from "../../domain/SiteSettings.ts"
import type { Tables } from "../db/schema.ts"
import { getSettings } from "./settingsRepo.ts"

export type SiteSettingsValues = { -readonly [K in keyof SiteSettings]: SiteSettings[K] }
export type SiteSettingKey = keyof SiteSettings

export const isSiteSettingKey = (key: string): key is SiteSettingKey =>
  (SITE_SETTING_KEYS as ReadonlyArray<string>).includes(key)

/**
 * The defaults overlaid with what is stored. A stored value of the wrong type (hand-edited, or
 * from an older release) falls back to the default rather than breaking every client.
 */
export async function readSiteSettings(db: Kysely<Tables>): Promise<SiteSettingsValues> {
  const stored = await getSettings(db)
  const settings: SiteSettingsValues = { ...DEFAULT_SITE_SETTINGS }
  for (const key of SITE_SETTING_KEYS) {
    const value = stored[key]
    if (typeof value === typeof DEFAULT_SITE_SETTINGS[key] && (typeof value !== "number" || Number.isFinite(value))) {
      Object.assign(settings, { [key]: value })
    }
  }
  return settings
}

/** Reads an operator's text as the setting's type; a message when it does not fit. */
export function parseSettingValue(key: SiteSettingKey, text: string): { ok: true; value: string | number } | { ok: false; message: string } {
  if (typeof DEFAULT_SITE_SETTINGS[key] === "number") {
    const value = Number(text)
    return text.trim() !== "" && Number.isFinite(value) && value >= 0
      ? { ok: true, value }
      : { ok: false, message: `${key} must be a number of zero or more (got "${text}")` }
  }
  return { ok: true, value: text }
}
