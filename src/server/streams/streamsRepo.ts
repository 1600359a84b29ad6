import { type Kysely, sql } from "kysely"
import { hotQuery } from "../db/hotQuery.ts"
import type { StreamRow, Tables, Timestamp } from "../db/schema.ts"

export interface NewStreamInput {
  title: string
  src?: string | null
  src_sldp?: string | null
  image_location?: string
  tags?: string
  tags_sldp?: string
  maintenance_mode?: boolean
  /** The XMLTV channel of its guide. */
  epg_channel_id?: string | null
  /** Display order; defaults to after the last stream. */
  position?: number
  created_at?: Timestamp
}

/** In display order; the id breaks ties so the order is stable. */
const streamsInOrder = hotQuery((db) => db.selectFrom("streams").selectAll().orderBy("position").orderBy("id"))

export async function listStreams(db: Kysely<Tables>): Promise<StreamRow[]> {
  return streamsInOrder(db)
}

export async function findStream(db: Kysely<Tables>, id: number): Promise<StreamRow | undefined> {
  return db.selectFrom("streams").selectAll().where("id", "=", id).executeTakeFirst()
}

export async function countStreams(db: Kysely<Tables>): Promise<number> {
  const row = await db
    .selectFrom("streams")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow()
  return row.count
}

export async function insertStream(db: Kysely<Tables>, input: NewStreamInput): Promise<StreamRow> {
  // One statement, so the position read and the insert are atomic on SQLite; on PostgreSQL two
  // concurrent inserts may tie on a position, which the id ordering resolves.
  const afterLast = sql<number>`(select coalesce(max(position), 0) + 1 from streams)`
  return db
    .insertInto("streams")
    .values({
      position: input.position ?? afterLast,
      title: input.title,
      src: input.src ?? null,
      src_sldp: input.src_sldp ?? null,
      image_location: input.image_location ?? "",
      tags: input.tags ?? "",
      tags_sldp: input.tags_sldp ?? "",
      maintenance_mode: input.maintenance_mode ?? false,
      epg_channel_id: input.epg_channel_id ?? null,
      created_at: input.created_at ?? new Date().toISOString()
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Returns false when there was no such stream. */
export async function deleteStream(db: Kysely<Tables>, id: number): Promise<boolean> {
  const result = await db.deleteFrom("streams").where("id", "=", id).executeTakeFirst()
  return result.numDeletedRows > 0n
}

/** Returns false when there was no such stream. */
export async function setStreamMaintenance(db: Kysely<Tables>, id: number, on: boolean): Promise<boolean> {
  const result = await db.updateTable("streams").set({ maintenance_mode: on }).where("id", "=", id).executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** The fields of a stream an operator may change after adding it. */
export type StreamChanges = Partial<
  Pick<StreamRow, "title" | "src" | "src_sldp" | "image_location" | "tags" | "tags_sldp" | "epg_channel_id">
>

/** Changes only the given fields; returns false when there was no such stream. */
export async function updateStream(db: Kysely<Tables>, id: number, changes: StreamChanges): Promise<boolean> {
  if (Object.keys(changes).length === 0) return (await findStream(db, id)) !== undefined
  const result = await db.updateTable("streams").set(changes).where("id", "=", id).executeTakeFirst()
  return result.numUpdatedRows > 0n
}
