import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"

// Health events also say what was watched (the analytics ids) and which optional parts of the
// player ran (SPEC §7 `ids`, `plugins`), kept as the JSON they arrived as. Older rows get empties.
export function healthIdsAndPlugins(): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    await db.schema
      .alterTable("health_events")
      .addColumn("ids", "text", (c) => c.notNull().defaultTo("{}"))
      .execute()
    await db.schema
      .alterTable("health_events")
      .addColumn("plugins", "text", (c) => c.notNull().defaultTo("[]"))
      .execute()
  }
  return { up }
}
