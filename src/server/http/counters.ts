import { type Kysely, sql } from "kysely"
import type { Tables } from "../db/schema.ts"

/** A key's open window: how many events fell into it, and ms until it closes (0 when none is open). */
export interface Count {
  readonly count: number
  readonly msLeft: number
}

const NONE: Count = { count: 0, msLeft: 0 }

/**
 * Fixed-window event counters behind every rate limit and lockout: the first event of a key opens
 * a window of `windowMs`, later ones add to it until it closes. On SQLite (one instance) they are
 * kept in memory; on PostgreSQL they live in `rate_limits`, so all instances count together.
 */
export interface Counters {
  /** Counts `points` events now and answers the window as it stands after them. */
  add(key: string, windowMs: number, points?: number): Promise<Count>
  /**
   * Counts `points` events and answers at once from what this instance knows: the count reaches
   * the shared store within `flushMs` and comes back with what the other instances counted. For
   * limits checked on every request, where a query each would cost more than the request.
   */
  addSoon(key: string, windowMs: number, points?: number): Count
  read(key: string): Promise<Count>
  reset(key: string): Promise<void>
  /** Sends what is still pending and stops the timers. */
  close(): Promise<void>
}

interface Window {
  count: number
  closesAt: number
}

/** Past this many keys, closed windows are swept on the next new key. */
const SWEEP_ABOVE = 10_000
/** Past this many open windows (a flood from very many addresses), the oldest tenth is forgotten. */
const MAX_KEYS = 200_000
/** Keys per statement when counts go to PostgreSQL: three parameters each, well within its 65,535. */
const FLUSH_CHUNK = 5_000

function memoryWindows(now: () => number) {
  const windows = new Map<string, Window>()
  const open = (key: string, at: number): Window | undefined => {
    const window = windows.get(key)
    return window === undefined || window.closesAt <= at ? undefined : window
  }
  const add = (key: string, windowMs: number, points: number): Count => {
    const at = now()
    let window = open(key, at)
    if (window === undefined) {
      if (windows.size >= SWEEP_ABOVE) {
        for (const [k, w] of windows) if (w.closesAt <= at) windows.delete(k)
      }
      if (windows.size >= MAX_KEYS) {
        let forget = MAX_KEYS / 10
        for (const k of windows.keys()) {
          if (forget-- <= 0) break
          windows.delete(k)
        }
      }
      window = { count: 0, closesAt: at + windowMs }
      windows.set(key, window)
    }
    window.count += points
    return { count: window.count, msLeft: window.closesAt - at }
  }
  const read = (key: string): Count => {
    const at = now()
    const window = open(key, at)
    return window === undefined ? NONE : { count: window.count, msLeft: window.closesAt - at }
  }
  return { windows, open, add, read }
}

/** One instance's counters, in memory: right for SQLite, which one instance serves. */
export function memoryCounters(now: () => number): Counters {
  const memory = memoryWindows(now)
  return {
    add: async (key, windowMs, points = 1) => memory.add(key, windowMs, points),
    addSoon: (key, windowMs, points = 1) => memory.add(key, windowMs, points),
    read: async (key) => memory.read(key),
    reset: async (key) => {
      memory.windows.delete(key)
    },
    close: async () => undefined
  }
}

export interface PostgresCountersOptions {
  /** How long `addSoon` counts gather before they go to the database in one statement. */
  readonly flushMs?: number
  /** How often windows closed for an hour are deleted. */
  readonly sweepEveryMs?: number
}

interface Row {
  key: string
  count: number
  closes_at: number
}

/**
 * Counters shared through PostgreSQL. `add` is one upsert that opens, resets or adds to the key's
 * window and returns it. `addSoon` counts in memory and sends the counts of all keys every
 * `flushMs` in one statement; the totals that come back (with every instance's counts) replace
 * the local ones, so a key blocked anywhere is blocked here within one flush, at no query per
 * request. Should the database fail, counting goes on locally and the next flush tries again.
 */
export function postgresCounters(db: Kysely<Tables>, now: () => number, options: PostgresCountersOptions = {}): Counters {
  const flushMs = options.flushMs ?? 250
  const local = memoryWindows(now)
  /** Points counted since the last flush, per key; they belong to the key's open local window. */
  let pending = new Map<string, number>()
  let flushTimer: NodeJS.Timeout | undefined
  let flushing: Promise<void> = Promise.resolve()
  let closed = false

  /** Entries are a key, its points and when the window they were counted in closes. */
  const upsert = async (entries: ReadonlyArray<readonly [string, number, number]>): Promise<ReadonlyArray<Row>> => {
    const at = now()
    const values = sql.join(entries.map(([key, points, closesAt]) => sql`(${key}, ${points}::integer, ${closesAt}::bigint)`))
    // A closed window starts again with these points; an open one adds them.
    const result = await sql<Row>`
      insert into rate_limits as r (key, count, closes_at) values ${values}
      on conflict (key) do update set
        count = case when r.closes_at <= ${at}::bigint then excluded.count else r.count + excluded.count end,
        closes_at = case when r.closes_at <= ${at}::bigint then excluded.closes_at else r.closes_at end
      returning key, count, closes_at`.execute(db)
    return result.rows
  }

  const adopt = (row: Row) => {
    // a window that closed while the statement was on its way counts for nothing here
    if (Number(row.closes_at) <= now()) return
    const window = local.windows.get(row.key)
    const waiting = pending.get(row.key) ?? 0
    if (window === undefined) local.windows.set(row.key, { count: row.count + waiting, closesAt: Number(row.closes_at) })
    else {
      window.count = row.count + waiting
      window.closesAt = Number(row.closes_at)
    }
  }

  const flush = async (): Promise<void> => {
    flushTimer = undefined
    if (pending.size === 0) return
    const batch = pending
    pending = new Map()
    // Each key's points go with its local window's end, so a late flush neither carries them into
    // a window opened after that one closed nor opens the database's window later than the first
    // event did.
    const entries: Array<readonly [string, number, number]> = []
    for (const [key, points] of batch) {
      const window = local.open(key, now())
      if (window === undefined) batch.delete(key)
      else entries.push([key, points, window.closesAt])
    }
    try {
      for (let start = 0; start < entries.length; start += FLUSH_CHUNK) {
        const chunk = entries.slice(start, start + FLUSH_CHUNK)
        const rows = await upsert(chunk)
        // counted: a later chunk failing must not send these again
        for (const [key] of chunk) batch.delete(key)
        for (const row of rows) adopt(row)
      }
    } catch {
      // kept for the next flush: the counts are late, not lost
      for (const [key, points] of batch) {
        if (local.open(key, now()) === undefined) continue
        pending.set(key, points + (pending.get(key) ?? 0))
      }
      schedule()
    }
  }
  const schedule = () => {
    if (closed || flushTimer !== undefined) return
    flushTimer = setTimeout(() => {
      flushing = flushing.then(flush)
    }, flushMs)
    flushTimer.unref()
  }

  const sweepTimer = setInterval(
    () => {
      void db
        .deleteFrom("rate_limits")
        .where("closes_at", "<", now() - 60 * 60 * 1000)
        .execute()
        .catch(() => undefined)
    },
    options.sweepEveryMs ?? 5 * 60 * 1000
  )
  sweepTimer.unref()

  return {
    async add(key, windowMs, points = 1) {
      const [row] = await upsert([[key, points, now() + windowMs]])
      if (row === undefined) return NONE
      return { count: row.count, msLeft: Math.max(0, Number(row.closes_at) - now()) }
    },
    addSoon(key, windowMs, points = 1) {
      const opens = local.open(key, now()) === undefined
      const count = local.add(key, windowMs, points)
      // what is still pending from a closed window is not carried into the new one
      pending.set(key, points + (opens ? 0 : (pending.get(key) ?? 0)))
      schedule()
      return count
    },
    async read(key) {
      const row = await db
        .selectFrom("rate_limits")
        .select(["count", "closes_at"])
        .where("key", "=", key)
        .where("closes_at", ">", now())
        .executeTakeFirst()
      return row === undefined ? NONE : { count: row.count, msLeft: Number(row.closes_at) - now() }
    },
    async reset(key) {
      local.windows.delete(key)
      pending.delete(key)
      await db.deleteFrom("rate_limits").where("key", "=", key).execute()
    },
    async close() {
      closed = true
      clearInterval(sweepTimer)
      if (flushTimer !== undefined) clearTimeout(flushTimer)
      flushing = flushing.then(flush)
      await flushing
    }
  }
}
