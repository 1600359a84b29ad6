import type { Kysely } from "kysely"
import { inTransaction } from "../db/database.ts"
import type { Tables } from "../db/schema.ts"

// Values are stored as JSON text: site settings are few, read whole, and their shapes belong to
// the domain layer, so the database neither knows nor constrains them.

export async function getSettings(db: Kysely<Tables>): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom("settings").select(["key", "value"]).orderBy("key").execute()
  return Object.fromEntries(rows.map((row) => [row.key, JSON.parse(row.value) as unknown]))
}

export async function getSetting(db: Kysely<Tables>, key: string): Promise<unknown> {
  const row = await db.selectFrom("settings").select("value").where("key", "=", key).executeTakeFirst()
  return row === undefined ? undefined : (JSON.parse(row.value) as unknown)
}

/** Creates or replaces one setting. `value` must be JSON-serialisable. */
export async function setSetting(db: Kysely<Tables>, key: string, value: unknown): Promise<void> {
  const json = encode(key, value)
  await db
    .insertInto("settings")
    .values({ key, value: json })
    .onConflict((oc) => oc.column("key").doUpdateSet({ value: json }))
    .execute()
}

/**
 * Stores a setting unless one exists; true when this call stored it. On PostgreSQL a concurrent
 * caller's uncommitted row makes this wait for its transaction, so exactly one caller gets true.
 */
export async function addSettingIfAbsent(db: Kysely<Tables>, key: string, value: unknown): Promise<boolean> {
  const added = await db
    .insertInto("settings")
    .values({ key, value: encode(key, value) })
    .onConflict((oc) => oc.column("key").doNothing())
    .returning("key")
    .executeTakeFirst()
  return added !== undefined
}

/** Sets several settings at once: readers see all of them changed or none. */
export async function setSettings(db: Kysely<Tables>, values: Record<string, unknown>): Promise<void> {
  await inTransaction(db, async (trx) => {
    for (const [key, value] of Object.entries(values)) await setSetting(trx, key, value)
  })
}

export async function deleteSetting(db: Kysely<Tables>, key: string): Promise<boolean> {
  const result = await db.deleteFrom("settings").where("key", "=", key).executeTakeFirst()
  return result.numDeletedRows > 0n
}

function encode(key: string, value: unknown): string {
  const json = JSON.stringify(value)
  // JSON.stringify returns undefined for undefined, functions and symbols; storing that would
  // fail later, on read, far from the mistake.
  if (json === undefined) throw new TypeError(`setting "${key}": value is not JSON-serialisable`)
  return json
}
