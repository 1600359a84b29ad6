import { randomUUID } from "node:crypto"
import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"

const iso = (ms: number): Timestamp => new Date(ms).toISOString()

/** This process among the instances: every lease it takes is held under a name ending with it. */
export const THIS_PROCESS = randomUUID()
const NEVER = iso(0)

/**
 * Takes the lease on job `name` for `holder` until `until`, if it is free (expired) or already
 * theirs. One conditional UPDATE decides, so on SQLite and PostgreSQL alike two instances asking
 * at once cannot both get it: PostgreSQL re-checks the condition on the row the first one wrote.
 */
export async function takeLease(db: Kysely<Tables>, lease: { name: string; holder: string; now: number; until: number }): Promise<boolean> {
  await db
    .insertInto("job_leases")
    .values({ name: lease.name, holder: "", leased_until: NEVER })
    .onConflict((oc) => oc.column("name").doNothing())
    .execute()
  const result = await db
    .updateTable("job_leases")
    .set({ holder: lease.holder, leased_until: iso(lease.until) })
    .where("name", "=", lease.name)
    .where((eb) => eb.or([eb("leased_until", "<=", iso(lease.now)), eb("holder", "=", lease.holder)]))
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Gives the lease up, if `holder` has it, so another instance may take it at once. */
export async function releaseLease(db: Kysely<Tables>, lease: { name: string; holder: string; now: number }): Promise<void> {
  await db
    .updateTable("job_leases")
    .set({ holder: "", leased_until: iso(lease.now) })
    .where("name", "=", lease.name)
    .where("holder", "=", lease.holder)
    .execute()
}

/** Who holds the lease on `name`, and until when; undefined when nobody ever took it. */
export async function leaseOf(db: Kysely<Tables>, name: string): Promise<{ holder: string; leasedUntil: Timestamp } | undefined> {
  const row = await db.selectFrom("job_leases").select(["holder", "leased_until"]).where("name", "=", name).executeTakeFirst()
  return row === undefined ? undefined : { holder: row.holder, leasedUntil: row.leased_until }
}

/**
 * The leases this process holds that ran out before `before` without being renewed or given up:
 * a job or feed of this instance that stopped keeping its lease, so another instance may run it
 * too. Answers their names.
 */
export async function leasesRunOut(db: Kysely<Tables>, before: number): Promise<Array<string>> {
  const rows = await db.selectFrom("job_leases").select(["name", "holder"]).where("leased_until", "<", iso(before)).execute()
  return rows.filter((row) => row.holder.endsWith(THIS_PROCESS)).map((row) => row.name)
}
