import type { Kysely } from "kysely"
import type { Migration } from "kysely/migration"
import type { Dialect } from "../database.ts"
import { followChanges } from "./changeSignals.ts"

// Every page asks for the maintenance notice, the site settings and the latest announcement, and
// each prerendered page for the first two: rows an operator changes a few times a year. Their
// changes are followed as the streams' are, so servers keep them until one comes.
export function shellChangeSignals(dialect: Dialect): Migration {
  const up = async (db: Kysely<unknown>): Promise<void> => {
    for (const table of ["settings", "maintenance", "announcements"]) await followChanges(db, dialect, table)
  }
  return { up }
}
