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
  get(tokenHash: string, now: number): SessionWithUser | undefined
  set(tokenHash: string, row: SessionWithUser, now: number): void
}

interface Entry {
  readonly row: SessionWithUser
  readonly at: number
  readonly epoch: number
}

/**
 * Sessions looked up in the last `ttlMs`: a player sends a heartbeat a minute and a page a few
 * requests at once, so most requests find their session here instead of in the database.
 */
export function createSessionCache(options: { ttlMs?: number; maxEntries?: number } = {}): SessionCache {
  const ttlMs = options.ttlMs ?? 1000
  const maxEntries = options.maxEntries ?? 10_000
  const entries = new Map<string, Entry>()
  return {
    get(tokenHash, now) {
      const entry = entries.get(tokenHash)
      if (entry === undefined) return undefined
      if (entry.epoch !== epoch || now - entry.at >= ttlMs || now < entry.at) {
        entries.delete(tokenHash)
        return undefined
      }
      return entry.row
    },
    set(tokenHash, row, now) {
      if (ttlMs <= 0) return
      if (entries.size >= maxEntries) entries.clear()
      entries.set(tokenHash, { row, at: now, epoch })
    }
  }
}
