import type { Kysely } from "kysely"
import { pruneBefore } from "../db/pruneBefore.ts"
import type { Tables, Timestamp } from "../db/schema.ts"

// The addresses the origin refused a playlist for want of a valid grant: staff see them as
// 'UNKNOWN IP WATCHING STREAM'.

/** Addresses refused by the origin, each with the channel it asked for last. */
export interface UnknownViewer {
  readonly ip: string
  readonly channel: string
  readonly at: Timestamp
}

export async function recordUnknownViewers(db: Kysely<Tables>, viewers: ReadonlyArray<UnknownViewer>): Promise<void> {
  const latest = new Map(viewers.map((viewer) => [viewer.ip, viewer]))
  if (latest.size === 0) return
  await db
    .insertInto("unknown_viewers")
    .values([...latest.values()].map((viewer) => ({ ip: viewer.ip, channel: viewer.channel, first_seen: viewer.at, last_seen: viewer.at })))
    .onConflict((oc) =>
      oc.column("ip").doUpdateSet((eb) => ({ channel: eb.ref("excluded.channel"), last_seen: eb.ref("excluded.last_seen") }))
    )
    .execute()
}

/** Refused addresses seen at or after `since`, oldest sighting first. */
export async function unknownViewersSince(db: Kysely<Tables>, since: Timestamp, limit: number): Promise<Array<string>> {
  const rows = await db
    .selectFrom("unknown_viewers")
    .select("ip")
    .where("last_seen", ">=", since)
    .orderBy("last_seen")
    .limit(limit)
    .execute()
  return rows.map((row) => row.ip)
}

/** Forgets up to `limit` refused addresses quiet since before `cutoff`; answers how many went. */
export const pruneUnknownViewers = (db: Kysely<Tables>, cutoff: Timestamp, limit: number): Promise<number> =>
  pruneBefore(db, "unknown_viewers", "ip", "last_seen", cutoff, limit)

/** Refused networks kept at most, whatever their age: staff see the newest 500; a flood keeps no more. */
export const UNKNOWN_VIEWER_ROWS = 10_000

/**
 * Forgets up to `limit` of the refused networks seen longest ago beyond the newest `keep`;
 * answers how many went.
 */
export async function pruneUnknownViewersBeyond(db: Kysely<Tables>, keep: number, limit: number): Promise<number> {
  const boundary = await db
    .selectFrom("unknown_viewers")
    .select("last_seen")
    .orderBy("last_seen", "desc")
    .limit(1)
    .offset(keep)
    .executeTakeFirst()
  if (boundary === undefined) return 0
  const result = await db
    .deleteFrom("unknown_viewers")
    .where(
      "ip",
      "in",
      db.selectFrom("unknown_viewers").select("ip").where("last_seen", "<=", boundary.last_seen).orderBy("last_seen").limit(limit)
    )
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
