import { randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import {
  discardStaged,
  discardStagedBefore,
  type GuideWindow,
  type ImportedChannel,
  type ProgrammeRow,
  prepareStaging,
  stagingFor,
  swapInImport
} from "./guideImportRepo.ts"
import { type GuideProgramme, ProgrammeTimeline, type RepairReason, type SkipReason } from "./programmeTimeline.ts"
import { readXmltv } from "./xmltvReader.ts"

export interface GuideImportProgress {
  /** Programmes read and kept so far. */
  readonly programmes: number
  /** Channels the file has mentioned so far. */
  readonly channels: number
}

export interface GuideImportResult extends GuideImportProgress {
  readonly skipped: ReadonlyMap<SkipReason, number>
  /** Programmes kept with a stop the file did not quite give (see `ProgrammeTimeline`). */
  readonly repaired: ReadonlyMap<RepairReason, number>
  /** Earliest start and latest stop over every channel; undefined when the file had no programmes. */
  readonly window: GuideWindow | undefined
}

export interface GuideImportOptions {
  /** Epoch ms. */
  readonly now: number
  /** Called after each chunk of the file; cheap, so callers throttle what they show. */
  readonly onProgress?: (progress: GuideImportProgress) => void
  /** Written in the transaction that puts the import in place (who imported it), so both happen or neither. */
  readonly alongside?: (trx: Kysely<Tables>, imported: GuideImportProgress) => Promise<void>
}

// Staged in commits of this many rows: a batch waiting for its commit outlives the young
// generation's collections, and V8 answers rows that survive by growing the heap.
const ROWS_PER_COMMIT = 500
// An import that died (process killed) leaves its staged rows; the next import clears them.
const STALE_STAGING_MS = 24 * 60 * 60 * 1000

const iso = (ms: number): string => new Date(ms).toISOString()

/**
 * Reads an XMLTV document and replaces, per channel it has programmes for, the guide between that
 * channel's earliest start and latest stop. Programmes are staged while the file streams in and
 * swapped in by one transaction at the end, so a file that turns out malformed or truncated, or
 * a source that breaks off, changes nothing: the error propagates and the last good guide stays.
 */
export async function importGuide(
  db: Kysely<Tables>,
  text: AsyncIterable<string>,
  options: GuideImportOptions
): Promise<GuideImportResult> {
  const importId = `${iso(options.now)}#${randomBytes(6).toString("hex")}`
  await prepareStaging(db)
  await discardStagedBefore(db, iso(options.now - STALE_STAGING_MS))
  const channels = new Map<string, string | undefined>()
  const spans = new Map<string, { from: number; to: number }>()
  const timeline = new ProgrammeTimeline()
  const stage = stagingFor(db, importId)
  let pending: Array<ProgrammeRow> = []
  let programmes = 0
  // as with reading times, the start of one programme is mostly the stop of the one before
  let lastMs = Number.NaN
  let lastIso = ""
  const isoOf = (ms: number) => {
    if (ms !== lastMs) {
      lastMs = ms
      lastIso = iso(ms)
    }
    return lastIso
  }

  const keep = (programme: GuideProgramme) => {
    programmes += 1
    const span = spans.get(programme.channel)
    if (span === undefined) spans.set(programme.channel, { from: programme.start, to: programme.stop })
    else {
      if (programme.start < span.from) span.from = programme.start
      if (programme.stop > span.to) span.to = programme.stop
    }
    pending.push({
      channel_id: programme.channel,
      start_at: isoOf(programme.start),
      stop_at: isoOf(programme.stop),
      title: programme.title,
      subtitle: programme.subtitle
    })
  }
  const flush = async () => {
    const rows = pending
    pending = []
    await stage(rows)
  }

  try {
    for await (const items of readXmltv(text)) {
      for (const item of items) {
        if (item.kind === "channel") {
          if (item.id !== "") channels.set(item.id, item.name ?? channels.get(item.id))
        } else {
          if (item.channel !== "" && !channels.has(item.channel)) channels.set(item.channel, undefined)
          timeline.add(item, keep)
        }
      }
      if (pending.length >= ROWS_PER_COMMIT) await flush()
      options.onProgress?.({ programmes, channels: channels.size })
    }
    timeline.end(keep)
    await flush()
    const windows = new Map([...spans].map(([channel, span]) => [channel, { from: iso(span.from), to: iso(span.to) }]))
    const imported: Array<ImportedChannel> = [...channels].map(([id, name]) => ({ id, name }))
    const alongside = options.alongside
    await swapInImport(
      db,
      importId,
      imported,
      windows,
      iso(options.now),
      alongside === undefined ? undefined : (trx) => alongside(trx, { programmes, channels: channels.size })
    )
  } catch (error) {
    await discardStaged(db, importId).catch(() => undefined)
    throw error
  }
  return { programmes, channels: channels.size, skipped: timeline.skipped, repaired: timeline.repaired, window: overall(spans) }
}

function overall(spans: ReadonlyMap<string, { from: number; to: number }>): GuideWindow | undefined {
  if (spans.size === 0) return undefined
  let from = Infinity
  let to = -Infinity
  for (const span of spans.values()) {
    from = Math.min(from, span.from)
    to = Math.max(to, span.to)
  }
  return { from: iso(from), to: iso(to) }
}
