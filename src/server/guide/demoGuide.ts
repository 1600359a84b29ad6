import type { Kysely } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"
import { DEMO_FORMATS, type Pick } from "./demoProgrammes.ts"
import { type ProgrammeRow, ROWS_PER_STATEMENT } from "./guideImportRepo.ts"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
/** The guide page shows seven days; the demo guide keeps at least that much ahead. */
export const DEMO_GUIDE_AHEAD_MS = 7 * DAY
// Topping up reaches one day further, so a restart a few hours later has nothing to add.
const DEMO_GUIDE_REACH_MS = 8 * DAY

/** The XMLTV channel id a demo channel's stream is tied to. */
export const demoGuideChannelId = (channelName: string): string => `${channelName}.streamhub.demo`

const iso = (ms: number): Timestamp => new Date(ms).toISOString()

// FNV-1a, then mulberry32: a programme's random numbers depend on its channel and start alone.
function randomFor(seed: string): () => number {
  let hash = 0x811c9dc5
  for (let i = 0; i < seed.length; i += 1) hash = Math.imul(hash ^ seed.charCodeAt(i), 0x01000193)
  let state = hash >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The demo programme that starts at `start` on `channel`; always the same one for the same slot. */
export function demoProgramme(channel: string, start: number): ProgrammeRow {
  const random = randomFor(`${channel}|${start}`)
  const pick: Pick = (items) => items[Math.floor(random() * items.length)] as (typeof items)[number]
  const format = pick(DEMO_FORMATS)
  const minutes = pick(format.minutes)
  return {
    channel_id: channel,
    start_at: iso(start),
    stop_at: iso(start + minutes * MINUTE),
    title: format.title(pick),
    subtitle: format.subtitle(pick)
  }
}

/** Consecutive demo programmes from `from` until one ends at or after `until`. */
export function demoProgrammes(channel: string, from: number, until: number): Array<ProgrammeRow> {
  const rows: Array<ProgrammeRow> = []
  for (let start = from; start < until; ) {
    const row = demoProgramme(channel, start)
    rows.push(row)
    start = Date.parse(row.stop_at)
  }
  return rows
}

/** Registers a demo channel; nothing changes when it exists already (an import may have claimed it). */
export async function addDemoChannel(db: Kysely<Tables>, channel: { id: string; name: string }, at: Timestamp): Promise<void> {
  await db
    .insertInto("guide_channels")
    .values({ id: channel.id, name: channel.name, source: "demo", updated_at: at })
    .onConflict((oc) => oc.column("id").doNothing())
    .execute()
}

/**
 * Extends the generated guide of each demo channel still tied to a stream whenever fewer than seven
 * days remain, from where it ends (or from yesterday's start, UTC, so every zone's today is full).
 * Channels an import has claimed are left to the import. Safe when instances start together:
 * the same slot always yields the same programme, and a programme exists once.
 */
export async function keepDemoGuideAhead(db: Kysely<Tables>, now: number): Promise<number> {
  const channels = await db
    .selectFrom("guide_channels as c")
    .innerJoin("streams as s", "s.epg_channel_id", "c.id")
    .select("c.id")
    .distinct()
    .where("c.source", "=", "demo")
    .execute()
  const yesterday = Math.floor(now / DAY) * DAY - DAY
  let added = 0
  for (const { id } of channels) {
    const last = await db
      .selectFrom("guide_programmes")
      .select("stop_at")
      .where("channel_id", "=", id)
      .orderBy("start_at", "desc")
      .limit(1)
      .executeTakeFirst()
    const end = last === undefined ? undefined : Date.parse(last.stop_at)
    if (end !== undefined && end >= now + DEMO_GUIDE_AHEAD_MS) continue
    const rows = demoProgrammes(id, end === undefined || end < yesterday ? yesterday : end, now + DEMO_GUIDE_REACH_MS)
    await db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) {
        await trx
          .insertInto("guide_programmes")
          .values(rows.slice(i, i + ROWS_PER_STATEMENT))
          .onConflict((oc) => oc.doNothing())
          .execute()
      }
    })
    added += rows.length
  }
  return added
}
