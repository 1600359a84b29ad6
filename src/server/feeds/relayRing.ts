import { LRUCache } from "lru-cache"

/** One object the upstream gave: a segment, part, init section or key. */
export interface RingEntry {
  readonly body: Buffer
  readonly contentType: string
}

export interface RingCaps {
  /** bytes one channel may hold */
  readonly perChannel: number
  /** bytes every channel together may hold */
  readonly total: number
}

/** Sized for a small server: about a minute of a 3 Mbit/s channel with its parts, and a few channels. */
export const DEFAULT_RING_CAPS: RingCaps = { perChannel: 48 * 1024 * 1024, total: 256 * 1024 * 1024 }

export interface RelayRing {
  get(channel: string, name: string): RingEntry | undefined
  /** Keeps an entry, dropping the channel's (then everyone's) least recently used past the caps. */
  set(channel: string, name: string, entry: RingEntry): void
  /** Drops a channel's entries (its feed stopped). */
  clear(channel: string): void
  /** bytes held, by one channel or in all */
  bytes(channel?: string): number
}

const keyOf = (channel: string, name: string): string => `${channel}/${name}`

/**
 * The media of every relayed channel, in memory, capped in bytes per channel and in total. Viewers
 * are served from here; the least recently used go first, which for live media is the oldest.
 */
export function createRelayRing(caps: RingCaps = DEFAULT_RING_CAPS): RelayRing {
  const channels = new Map<string, { bytes: number; readonly keys: Set<string> }>()
  const cache = new LRUCache<string, RingEntry & { readonly channel: string }>({
    maxSize: caps.total,
    sizeCalculation: (entry) => Math.max(1, entry.body.length),
    disposeAfter: (entry, key) => {
      const held = channels.get(entry.channel)
      if (held === undefined || !held.keys.delete(key)) return
      held.bytes -= Math.max(1, entry.body.length)
      if (held.keys.size === 0) channels.delete(entry.channel)
    }
  })
  return {
    get: (channel, name) => cache.get(keyOf(channel, name)),
    set(channel, name, entry) {
      const size = Math.max(1, entry.body.length)
      if (size > caps.perChannel || size > caps.total) return
      const key = keyOf(channel, name)
      cache.delete(key)
      let held = channels.get(channel)
      if (held === undefined) {
        held = { bytes: 0, keys: new Set() }
        channels.set(channel, held)
      }
      held.keys.add(key)
      held.bytes += size
      cache.set(key, { ...entry, channel })
      // the channel's own oldest go first, so one busy channel cannot push the others out
      for (const oldest of held.keys) {
        if (held.bytes <= caps.perChannel) break
        cache.delete(oldest)
      }
    },
    clear(channel) {
      for (const key of [...(channels.get(channel)?.keys ?? [])]) cache.delete(key)
    },
    bytes: (channel) => (channel === undefined ? cache.calculatedSize : (channels.get(channel)?.bytes ?? 0))
  }
}
