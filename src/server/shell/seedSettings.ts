import type { Kysely } from "kysely"
import { DEFAULT_SERVER_SETTINGS, DEFAULT_SITE_SETTINGS } from "../../domain/SiteSettings.ts"
import { inTransaction } from "../db/database.ts"
import type { Tables } from "../db/schema.ts"
import { addSettingIfAbsent, getSetting, getSettings } from "./settingsRepo.ts"

/** Stores every site setting an operator has not set yet, so `settings:get` shows what is in effect. */
export async function seedSettings(db: Kysely<Tables>): Promise<void> {
  const stored = await getSettings(db)
  for (const [key, value] of Object.entries({ ...DEFAULT_SITE_SETTINGS, ...DEFAULT_SERVER_SETTINGS })) {
    // never over a value an operator (or another instance) stored since the read above
    if (!(key in stored)) await addSettingIfAbsent(db, key, value)
  }
}

/**
 * Runs `work` only on the first start: `marker` (not a site setting) records that it ran, so an
 * operator who deletes what it created does not get it back on the next restart. The marker and
 * the work commit together in one transaction (`work` must use the handle it is given): a crash
 * leaves neither, and of two instances starting together one claims the marker and the other,
 * having waited for that commit, finds it taken and does nothing.
 */
export async function onceEver<T>(
  db: Kysely<Tables>,
  marker: string,
  at: string,
  work: (trx: Kysely<Tables>) => Promise<T>
): Promise<T | undefined> {
  // every later start ends here, without opening a write transaction
  if ((await getSetting(db, marker)) !== undefined) return undefined
  return inTransaction(db, async (trx) => ((await addSettingIfAbsent(trx, marker, at)) ? work(trx) : undefined))
}
