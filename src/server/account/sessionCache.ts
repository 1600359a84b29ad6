import type { SessionWithUser } from "./sessionsRepo.ts"

// Bumped by every write to sessions or accounts in this process: a cached session read before
// it is not used again. Writes by other processes (the CLI, other instances) are seen once an
// entry's short lifetime is over.
let epoch = 0

/** Call after changing a session or an account, so no request acts on what was cached before. */
export const sessionsChanged = (): void => {
  epoch += 1
}

/** Changes with every write to sessions or accounts in this process; others' caches key on it. */
export const sessionsEpoch = (): number => epoch

export interface SessionCache {
  /** The cached session, if read within `maxAgeMs` (the cache's lifetime when not given). */
  get(tokenHash: string, now: number, maxAgeMs?: number): SessionWithUser | undefined
  /**
   * Keeps a row read at `now`, when nothing changed sessions or accounts in this process since
   * `epochAtRead` (sessionsEpoch() before the read): a row read before a sign-out is not kept.
   */
  set(tokenHash: string, row: SessionWithUser, now: number, epochAtRead: number): void
  /** Replaces a kept row with what was just written to it, leaving its age as it was. */
  update(tokenHash: string, row: SessionWithUser): void
  forget(tokenHash: string): void
}

interface Entry {
  readonly row: SessionWithUser
  readonly at: number
  readonly epoch: number
}

/** How stale a session may be for telemetry, which changes nothing a viewer or staff relies on. */
export const TELEMETRY_SESSION_MAX_AGE_MS = 30_000

/**
 * Sessions looked up in the last `ttlMs`: a page sends a few requests at once, so most requests
 * find their session here instead of in the database. Telemetry (a player's health beacon every
 * 10 s) accepts entries up to `keepMs` old, so a playing viewer's beacons cost no session read.
 */
export function createSessionCache(options: { ttlMs?: number; keepMs?: number; maxEntries?: number } = {}): SessionCache {
  const ttlMs = options.ttlMs ?? 1000
  const keepMs = Math.max(ttlMs, options.keepMs ?? TELEMETRY_SESSION_MAX_AGE_MS)
  const maxEntries = options.maxEntries ?? 10_000
  const entries = new Map<string, Entry>()
  return {
    get(tokenHash, now, maxAgeMs = ttlMs) {
      const entry = entries.get(tokenHash)
      if (entry === undefined) return undefined
      const age = now - entry.at
      if (entry.epoch !== epoch || age >= keepMs || age < 0) {
        entries.delete(tokenHash)
        return undefined
      }
      return age < Math.min(maxAgeMs, keepMs) ? entry.row : undefined
    },
    set(tokenHash, row, now, epochAtRead) {
      if (ttlMs <= 0 || epochAtRead !== epoch) return
      if (entries.size >= maxEntries) entries.clear()
      entries.set(tokenHash, { row, at: now, epoch })
    },
    update(tokenHash, row) {
      const entry = entries.get(tokenHash)
      if (entry !== undefined && entry.epoch === epoch) entries.set(tokenHash, { ...entry, row })
    },
    forget(tokenHash) {
      entries.delete(tokenHash)
    }
  }
}
