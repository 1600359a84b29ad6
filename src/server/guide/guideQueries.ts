import { type Kysely, sql } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"
import { MAX_PROGRAMME_MS } from "./programmeTimeline.ts"

export interface ScheduleRow {
  readonly channel_id: string
  readonly channel_name: string
  readonly stream_id: number | null
  readonly stream_title: string | null
  readonly start_at: Timestamp
  readonly stop_at: Timestamp
  readonly title: string
  readonly subtitle: string
}

export interface NowNextRow {
  readonly stream_id: number
  readonly start_at: Timestamp | null
  readonly stop_at: Timestamp | null
  readonly title: string | null
  readonly subtitle: string | null
}

/** How far ahead "next" looks: a channel silent for longer has no next programme to show. */
export const NEXT_LOOKAHEAD_MS = 2 * MAX_PROGRAMME_MS

const iso = (ms: number): Timestamp => new Date(ms).toISOString()

/**
 * Every programme overlapping [from, to), channel by channel: channels tied to a stream first in
 * the streams' order, then the others by name; within a channel by start. A channel named
 * `hidden` (by its guide name or its stream's title, ignoring case) is left out, and so are demo
 * channels whose stream is gone.
 */
export async function scheduleRows(
  db: Kysely<Tables>,
  range: { from: number; to: number; hidden: string }
): Promise<ReadonlyArray<ScheduleRow>> {
  const hidden = range.hidden.trim().toLowerCase()
  return (
    db
      .selectFrom("guide_programmes as p")
      .innerJoin("guide_channels as c", "c.id", "p.channel_id")
      .leftJoin("streams as s", "s.epg_channel_id", "c.id")
      .select([
        "c.id as channel_id",
        "c.name as channel_name",
        "s.id as stream_id",
        "s.title as stream_title",
        "p.start_at",
        "p.stop_at",
        "p.title",
        "p.subtitle"
      ])
      .where("p.start_at", ">", iso(range.from - MAX_PROGRAMME_MS))
      .where("p.start_at", "<", iso(range.to))
      .where("p.stop_at", ">", iso(range.from))
      .where((eb) => eb.not(eb.and([eb("c.source", "=", "demo"), eb("s.id", "is", null)])))
      .$if(hidden !== "", (qb) =>
        qb
          .where(sql<string>`lower(c.name)`, "<>", hidden)
          .where((eb) => eb.or([eb("s.title", "is", null), eb(sql<string>`lower(s.title)`, "<>", hidden)]))
      )
      // a CASE, not NULLS LAST: SQLite and PostgreSQL put NULLs at opposite ends
      .orderBy(sql`case when s.id is null then 1 else 0 end`)
      .orderBy("s.position")
      .orderBy("s.id")
      .orderBy(sql`lower(c.name)`)
      .orderBy("c.id")
      .orderBy("p.start_at")
      .execute()
  )
}

/**
 * For each stream tied to a guide channel, in display order: its first two programmes that have
 * not ended by `now` (rank 1 and 2), or one row of nulls when the guide has nothing ahead.
 */
export async function nowNextRows(db: Kysely<Tables>, now: number): Promise<ReadonlyArray<NowNextRow & { readonly rank: number | null }>> {
  const ranked = db
    .selectFrom("guide_programmes")
    .select(["channel_id", "start_at", "stop_at", "title", "subtitle"])
    .select((eb) =>
      eb.fn
        .agg<number>("row_number")
        .over((over) => over.partitionBy("channel_id").orderBy("start_at"))
        .as("rank")
    )
    .where("channel_id", "in", (eb) =>
      eb.selectFrom("streams").select("epg_channel_id").where("epg_channel_id", "is not", null).$narrowType<{ epg_channel_id: string }>()
    )
    .where("start_at", ">", iso(now - MAX_PROGRAMME_MS))
    .where("start_at", "<", iso(now + NEXT_LOOKAHEAD_MS))
    .where("stop_at", ">", iso(now))
  return db
    .selectFrom("streams as s")
    .innerJoin("guide_channels as c", "c.id", "s.epg_channel_id")
    .leftJoin(ranked.as("p"), (join) => join.onRef("p.channel_id", "=", "c.id").on("p.rank", "<=", 2))
    .select(["s.id as stream_id", "p.start_at", "p.stop_at", "p.title", "p.subtitle", "p.rank"])
    .orderBy("s.position")
    .orderBy("s.id")
    .orderBy("p.rank")
    .execute()
}

export interface WindowRow {
  readonly start_at: Timestamp
  readonly stop_at: Timestamp
  readonly title: string
  readonly subtitle: string
}

/** The programmes of a stream's guide channel overlapping [from, to], by start; none for a stream without a guide. */
export async function windowRows(
  db: Kysely<Tables>,
  range: { streamId: number; from: number; to: number }
): Promise<ReadonlyArray<WindowRow>> {
  return db
    .selectFrom("guide_programmes as p")
    .innerJoin("streams as s", "s.epg_channel_id", "p.channel_id")
    .select(["p.start_at", "p.stop_at", "p.title", "p.subtitle"])
    .where("s.id", "=", range.streamId)
    .where("p.start_at", ">", iso(range.from - MAX_PROGRAMME_MS))
    .where("p.start_at", "<=", iso(range.to))
    .where("p.stop_at", ">", iso(range.from))
    .orderBy("p.start_at")
    .execute()
}

export interface GuideChannelRow {
  readonly id: string
  readonly name: string
  readonly source: "xmltv" | "demo"
  readonly programmes: number
  readonly until: Timestamp | null
}

/** Every guide channel with how many programmes it has and when its guide ends, by name. */
export async function guideChannelRows(db: Kysely<Tables>): Promise<ReadonlyArray<GuideChannelRow>> {
  return db
    .selectFrom("guide_channels as c")
    .leftJoin("guide_programmes as p", "p.channel_id", "c.id")
    .select(["c.id", "c.name", "c.source"])
    .select((eb) => [eb.fn.count<number>("p.start_at").as("programmes"), eb.fn.max("p.stop_at").as("until")])
    .groupBy(["c.id", "c.name", "c.source"])
    .orderBy(sql`lower(c.name)`)
    .orderBy("c.id")
    .execute()
}
