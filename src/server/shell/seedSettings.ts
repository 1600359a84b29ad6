import type { Kysely } from "kysely"
import { DEFAULT_SERVER_SETTINGS, DEFAULT_SITE_SETTINGS } from "../../domain/SiteSettings.ts"
import type { Tables } from "../db/schema.ts"
import { getSetting, getSettings, setSetting } from "./settingsRepo.ts"

/** Stores every site setting an operator has not set yet, so `settings:get` shows what is in effect. */
export async function seedSettings(db: Kysely<Tables>): Promise<void> {
  const stored = await getSettings(db)
  for (const [key, value] of Object.entries({ ...DEFAULT_SITE_SETTINGS, ...DEFAULT_SERVER_SETTINGS })) {
    if (!(key in stored)) await setSetting(db, key, value)
  }
}

/**
 * Runs `work` only on the first start: `marker` (not a site setting) records that it ran, so an
 * operator who deletes what it created does not get it back on the next restart.
 */
export async function onceEver<T>(db: Kysely<Tables>, marker: string, at: string, work: () => Promise<T>): Promise<T | undefined> {
  if ((await getSetting(db, marker)) !== undefined) return undefined
  const result = await work()
  await setSetting(db, marker, at)
  return result
}
