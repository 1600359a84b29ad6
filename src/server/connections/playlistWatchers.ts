import type { FastifyInstance } from "fastify"

/** IPs that fetched a live playlist recently; kept in memory, it only feeds the staff view. */
export interface PlaylistWatchers {
  record(ip: string, now: number): void
  /** IPs seen within the window, oldest sighting first. */
  recent(now: number): Array<string>
}

export interface PlaylistWatchersOptions {
  readonly windowMs: number
  /** Bounds memory under a flood of addresses; the least recently seen go first. */
  readonly maxEntries?: number
}

export function createPlaylistWatchers({ windowMs, maxEntries = 10_000 }: PlaylistWatchersOptions): PlaylistWatchers {
  // Map order is insertion order: re-inserting on every sighting keeps it sorted by recency.
  const lastSeen = new Map<string, number>()
  const forgetBefore = (cutoff: number): void => {
    for (const [ip, seen] of lastSeen) {
      if (seen >= cutoff) break
      lastSeen.delete(ip)
    }
  }
  return {
    record(ip, now) {
      lastSeen.delete(ip)
      lastSeen.set(ip, now)
      forgetBefore(now - windowMs)
      while (lastSeen.size > maxEntries) {
        const oldest = lastSeen.keys().next()
        if (oldest.done === true) break
        lastSeen.delete(oldest.value)
      }
    },
    recent(now) {
      forgetBefore(now - windowMs)
      return [...lastSeen.keys()]
    }
  }
}

// Playlists, not segments: players refetch a live playlist every few seconds, so this sees every
// watcher at a fraction of the segment traffic.
const LIVE_PLAYLIST = /^\/live\/[^/]+\/[^/]+\.m3u8$/

/** Records the IP of every live playlist request, whichever plugin ends up serving it. */
export function registerPlaylistWatch(app: FastifyInstance, watchers: PlaylistWatchers, now: () => number): void {
  app.addHook("onRequest", async (request) => {
    if (request.method !== "GET" && request.method !== "HEAD") return
    const pathname = request.url.split("?", 1)[0] ?? ""
    if (LIVE_PLAYLIST.test(pathname)) watchers.record(request.ip, now())
  })
}
