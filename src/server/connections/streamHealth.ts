import type { Insertable, Kysely } from "kysely"
import type { StreamHealth } from "../../domain/Reports.ts"
import { pruneBefore } from "../db/pruneBefore.ts"
import type { StreamQoeSamplesTable, Tables, Timestamp } from "../db/schema.ts"

export type QoeSample = Insertable<StreamQoeSamplesTable>

/** What of a health record the quality figures read. */
export interface HealthRecord {
  readonly session_id: string
  readonly event: string
  readonly client_time: number
  readonly first_frame_ms?: number
  readonly ids?: { readonly media_id: string }
}

/** A stall longer than this is a player left waiting, not a rebuffer. */
const MAX_STALL_MS = 10 * 60 * 1000
const STREAM_ID = /^\d{1,15}$/
// live pings come once a minute and each stands for a minute watched (SPEC §8)
const PING_MS = 60 * 1000

/**
 * Turns players' health records into quality samples: the `firstframe` a player reports for each
 * source, a stall from `waiting` to the next `playing` once a source has played, and each
 * `error`. A player's beacons come a few seconds apart, so what a stall began with is
 * remembered between them (for the most recent players, within bounds).
 */
export function createQoeTracker(maxPlayers = 20_000) {
  const started = new Map<string, true>()
  const waitingSince = new Map<string, number>()
  const bounded = <V>(map: Map<string, V>, key: string, value: V): void => {
    map.delete(key)
    map.set(key, value)
    if (map.size > maxPlayers) {
      const oldest = map.keys().next()
      if (oldest.done !== true) map.delete(oldest.value)
    }
  }
  return (records: ReadonlyArray<HealthRecord>, at: Timestamp): Array<QoeSample> => {
    const samples: Array<QoeSample> = []
    const ordered = [...records].sort((a, b) => a.client_time - b.client_time)
    for (const record of ordered) {
      const streamId = record.ids?.media_id ?? ""
      if (!STREAM_ID.test(streamId)) continue
      const key = `${record.session_id}\n${streamId}`
      switch (record.event) {
        case "firstframe":
          if (record.first_frame_ms !== undefined) samples.push({ stream_id: streamId, kind: "ttff", value: record.first_frame_ms, at })
          break
        case "playing": {
          const since = waitingSince.get(key)
          waitingSince.delete(key)
          bounded(started, key, true)
          const stall = since === undefined ? -1 : record.client_time - since
          if (stall >= 0 && stall <= MAX_STALL_MS) samples.push({ stream_id: streamId, kind: "stall", value: stall, at })
          break
        }
        case "waiting":
          // waiting for the first picture is starting, not stalling
          if (started.has(key) && !waitingSince.has(key)) bounded(waitingSince, key, record.client_time)
          break
        case "error":
          waitingSince.delete(key)
          samples.push({ stream_id: streamId, kind: "error", value: 1, at })
          break
        case "pause":
        case "ended":
          waitingSince.delete(key)
          break
      }
    }
    return samples
  }
}

export async function insertQoeSamples(db: Kysely<Tables>, samples: ReadonlyArray<QoeSample>): Promise<void> {
  for (let start = 0; start < samples.length; start += 500) {
    await db
      .insertInto("stream_qoe_samples")
      .values(samples.slice(start, start + 500))
      .execute()
  }
}

export const pruneQoeSamples = (db: Kysely<Tables>, cutoff: Timestamp, limit: number): Promise<number> =>
  pruneBefore(db, "stream_qoe_samples", "id", "at", cutoff, limit)

const median = (values: ReadonlyArray<number>): number | null => {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? null) : Math.round(((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2)
}

/**
 * Each stream's quality since `since`, with how many watch it now: the median time to first
 * picture, the share of watching time spent stalled (against the minutes the players' live pings
 * stand for) and the errors. Streams nobody watched and nothing happened on are left out.
 */
export async function streamHealth(
  db: Kysely<Tables>,
  since: Timestamp,
  viewers: ReadonlyMap<string, number>
): Promise<Array<StreamHealth>> {
  const [firstFrames, totals, pings, streams] = await Promise.all([
    db.selectFrom("stream_qoe_samples").select(["stream_id", "value"]).where("at", ">=", since).where("kind", "=", "ttff").execute(),
    db
      .selectFrom("stream_qoe_samples")
      .select((eb) => ["stream_id", "kind", eb.fn.sum<number>("value").as("total"), eb.fn.countAll<number>().as("count")])
      .where("at", ">=", since)
      .where("kind", "in", ["stall", "error"])
      .groupBy(["stream_id", "kind"])
      .execute(),
    db
      .selectFrom("analytics_events")
      .select((eb) => ["media_id", eb.fn.countAll<number>().as("count")])
      .where("received_at", ">=", since)
      .where("event", "=", "ping")
      .where("video_type", "=", "live")
      .groupBy("media_id")
      .execute(),
    db.selectFrom("streams").select(["id", "title"]).execute()
  ])
  const titles = new Map(streams.map((stream) => [String(stream.id), stream.title]))
  const ids = new Set([...viewers.keys(), ...firstFrames.map((row) => row.stream_id), ...totals.map((row) => row.stream_id)])
  const watchedMs = new Map(pings.map((row) => [row.media_id, Number(row.count) * PING_MS]))
  return [...ids]
    .filter((id) => titles.has(id))
    .map((id): StreamHealth => {
      const stallMs = Number(totals.find((row) => row.stream_id === id && row.kind === "stall")?.total ?? 0)
      const errors = Number(totals.find((row) => row.stream_id === id && row.kind === "error")?.count ?? 0)
      const watched = (watchedMs.get(id) ?? 0) + stallMs
      return {
        streamId: id,
        stream: titles.get(id) ?? `Stream ${id}`,
        viewers: viewers.get(id) ?? 0,
        medianFirstFrameMs: median(firstFrames.filter((row) => row.stream_id === id).map((row) => Number(row.value))),
        rebufferingRatio: watched === 0 ? null : stallMs / watched,
        errors
      }
    })
    .sort((a, b) => b.viewers - a.viewers || b.errors - a.errors || a.stream.localeCompare(b.stream))
}
