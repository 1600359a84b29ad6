/**
 * Counts events per key in fixed windows: the first event of a key opens a window of `windowMs`,
 * and once `max` events fell into it the key is blocked until it closes. Kept in memory, with an
 * injectable clock, so a limit can be lifted early (`reset`) and tests can move time.
 */
export interface WindowCounter {
  /** Milliseconds until `key` may act again; 0 when it may now. */
  blockedFor(key: string): number
  hit(key: string): void
  reset(key: string): void
}

export interface WindowCounterOptions {
  readonly max: number
  readonly windowMs: number
  /** Epoch ms. */
  readonly now: () => number
  /** Past this many keys, closed windows are swept on the next hit. */
  readonly sweepAbove?: number
}

export function createWindowCounter({ max, windowMs, now, sweepAbove = 10_000 }: WindowCounterOptions): WindowCounter {
  const windows = new Map<string, { count: number; closesAt: number }>()
  const open = (key: string, at: number) => {
    const window = windows.get(key)
    if (window === undefined || window.closesAt <= at) return undefined
    return window
  }
  return {
    blockedFor(key) {
      const at = now()
      const window = open(key, at)
      return window !== undefined && window.count >= max ? window.closesAt - at : 0
    },
    hit(key) {
      const at = now()
      const window = open(key, at)
      if (window !== undefined) {
        window.count += 1
        return
      }
      if (windows.size >= sweepAbove) {
        for (const [k, w] of windows) if (w.closesAt <= at) windows.delete(k)
      }
      windows.set(key, { count: 1, closesAt: at + windowMs })
    },
    reset(key) {
      windows.delete(key)
    }
  }
}
