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
/**
 * A playing player reports at least every 5 s (its time updates, SPEC §9); a longer silence is
 * records lost or a page gone, so no more than this of it counts as watched.
 */
export const MAX_WATCH_GAP_MS = 30 * 1000
const STREAM_ID = /^\d{1,15}$/

/**
 * Turns players' health records into quality samples: the `firstframe` a player reports for each
 * source, a stall from `waiting` to the next `playing` once a source has played, each `error`,
 * and the time spent playing (from `playing` through its time updates to the next `waiting`,
 * `pause`, `ended` or `error`, by the players' own clocks), one `watch` sample per stream and
 * batch. A player's beacons come a few seconds apart, so what a stall or a stretch of playing
 * began with is remembered between them (for the most recent players, within bounds).
 */
export function createQoeTracker(maxPlayers = 20_000) {
  const started = new Map<string, true>()
  const waitingSince = new Map<string, number>()
  const playingSince = new Map<string, number>()
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
    const watched = new Map<string, number>()
    const ordered = [...records].sort((a, b) => a.client_time - b.client_time)
    for (const record of ordered) {
      const streamId = record.ids?.media_id ?? ""
      if (!STREAM_ID.test(streamId)) continue
      const key = `${record.session_id}\n${streamId}`
      // every record of a playing player marks how long it has played up to then
      const playedFrom = playingSince.get(key)
      if (playedFrom !== undefined) {
        const ms = Math.min(Math.max(0, record.client_time - playedFrom), MAX_WATCH_GAP_MS)
        watched.set(streamId, (watched.get(streamId) ?? 0) + ms)
        bounded(playingSince, key, Math.max(playedFrom, record.client_time))
      }
      switch (record.event) {
        case "firstframe":
          if (record.first_frame_ms !== undefined) samples.push({ stream_id: streamId, kind: "ttff", value: record.first_frame_ms, at })
          break
        case "playing": {
          const since = waitingSince.get(key)
          waitingSince.delete(key)
          bounded(started, key, true)
          if (!playingSince.has(key)) bounded(playingSince, key, record.client_time)
          const stall = since === undefined ? -1 : record.client_time - since
          if (stall >= 0 && stall <= MAX_STALL_MS) samples.push({ stream_id: streamId, kind: "stall", value: stall, at })
          break
        }
        case "waiting":
          playingSince.delete(key)
          // waiting for the first picture is starting, not stalling
          if (started.has(key) && !waitingSince.has(key)) bounded(waitingSince, key, record.client_time)
          break
        case "error":
          waitingSince.delete(key)
          playingSince.delete(key)
          samples.push({ stream_id: streamId, kind: "error", value: 1, at })
          break
        case "pause":
        case "ended":
          waitingSince.delete(key)
          playingSince.delete(key)
          break
      }
    }
    for (const [streamId, ms] of watched) if (ms > 0) samples.push({ stream_id: streamId, kind: "watch", value: ms, at })
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
 * picture, the share of watching time spent stalled (against the time the players report having
 * played, plus the stalls) and the errors. Streams nobody watched and nothing happened on are left out.
 */
export async function streamHealth(
  db: Kysely<Tables>,
  since: Timestamp,
  viewers: ReadonlyMap<string, number>
): Promise<Array<StreamHealth>> {
  const [firstFrames, totals, streams] = await Promise.all([
    db.selectFrom("stream_qoe_samples").select(["stream_id", "value"]).where("at", ">=", since).where("kind", "=", "ttff").execute(),
    db
      .selectFrom("stream_qoe_samples")
      .select((eb) => ["stream_id", "kind", eb.fn.sum<number>("value").as("total"), eb.fn.countAll<number>().as("count")])
      .where("at", ">=", since)
      .where("kind", "in", ["stall", "error", "watch"])
      .groupBy(["stream_id", "kind"])
      .execute(),
    db.selectFrom("streams").select(["id", "title"]).execute()
  ])
  const titles = new Map(streams.map((stream) => [String(stream.id), stream.title]))
  const ids = new Set([...viewers.keys(), ...firstFrames.map((row) => row.stream_id), ...totals.map((row) => row.stream_id)])
  const sumOf = (id: string, kind: QoeSample["kind"]): number =>
    Number(totals.find((row) => row.stream_id === id && row.kind === kind)?.total ?? 0)
  return [...ids]
    .filter((id) => titles.has(id))
    .map((id): StreamHealth => {
      const stallMs = sumOf(id, "stall")
      const errors = Number(totals.find((row) => row.stream_id === id && row.kind === "error")?.count ?? 0)
      const watched = sumOf(id, "watch") + stallMs
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
