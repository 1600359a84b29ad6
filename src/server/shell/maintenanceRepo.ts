import type { Kysely } from "kysely"
import { hotQuery } from "../db/hotQuery.ts"
import type { MaintenanceRow, Tables, Timestamp } from "../db/schema.ts"

export interface MaintenanceStatus {
  maintenance_mode: boolean
  title: string
  first_row_text: string
  second_row_text: string
}

// The table holds at most one row, id 1; a fresh install has none and is simply not in maintenance.
const ROW_ID = 1

// every page load asks for it: built once, not on each request
const maintenanceRow = hotQuery((db) =>
  db.selectFrom("maintenance").select(["maintenance_mode", "title", "first_row_text", "second_row_text"]).where("id", "=", ROW_ID)
)

export async function getMaintenance(db: Kysely<Tables>): Promise<MaintenanceStatus> {
  const [row] = await maintenanceRow(db)
  return row ?? { maintenance_mode: false, title: "", first_row_text: "", second_row_text: "" }
}

/** Changes only the fields given; the rest keep their current (or default) values. */
export async function setMaintenance(
  db: Kysely<Tables>,
  change: Partial<MaintenanceStatus>,
  now: Timestamp = new Date().toISOString()
): Promise<MaintenanceRow> {
  const fields = {
    ...(change.maintenance_mode !== undefined ? { maintenance_mode: change.maintenance_mode } : {}),
    ...(change.title !== undefined ? { title: change.title } : {}),
    ...(change.first_row_text !== undefined ? { first_row_text: change.first_row_text } : {}),
    ...(change.second_row_text !== undefined ? { second_row_text: change.second_row_text } : {}),
    updated_at: now
  }
  // An upsert is a single statement, so two writers cannot both find the row missing.
  return db
    .insertInto("maintenance")
    .values({ maintenance_mode: false, title: "", first_row_text: "", second_row_text: "", ...fields, id: ROW_ID })
    .onConflict((oc) => oc.column("id").doUpdateSet(fields))
    .returningAll()
    .executeTakeFirstOrThrow()
}
