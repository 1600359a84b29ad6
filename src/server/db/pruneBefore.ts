import { type Kysely, sql } from "kysely"
import type { Tables, Timestamp } from "./schema.ts"

/**
 * Deletes up to `limit` rows of `table` whose `column` is before `cutoff`, picked by `key`: one
 * short statement, so a large backlog goes a batch at a time and never holds the table long.
 * Answers how many went.
 */
export async function pruneBefore<T extends keyof Tables>(
  db: Kysely<Tables>,
  table: T,
  key: keyof Tables[T] & string,
  column: keyof Tables[T] & string,
  cutoff: Timestamp,
  limit: number
): Promise<number> {
  const result =
    await sql`delete from ${sql.table(table)} where ${sql.ref(key)} in (select ${sql.ref(key)} from ${sql.table(table)} where ${sql.ref(column)} < ${cutoff} limit ${limit})`.execute(
      db
    )
  return Number(result.numAffectedRows ?? 0n)
}
