/**
 * How many health records one session may send a minute. A player sends a dozen or two: a time
 * update every 5 s and its playing, waiting and pause events; ten times that covers a few tabs
 * of one session on a bad network.
 */
export const HEALTH_RECORDS_PER_MINUTE = 300
const MINUTE_MS = 60 * 1000

/**
 * Counts `records` more health records of a session and answers how many ms it must wait before
 * sending again: 0 when they are within its quota. A request without records counts as one, so
 * empty beacons are limited too.
 */
export type HealthQuota = (sessionId: number, records: number) => Promise<number>

export interface HealthQuotaOptions {
  readonly now: () => number
  readonly perMinute?: number
}

// Past this many sessions, closed windows are swept when a new one opens.
const SWEEP_ABOVE = 10_000

/** The quota in this process's memory: fixed one-minute windows per session. */
export function memoryHealthQuota({ now, perMinute = HEALTH_RECORDS_PER_MINUTE }: HealthQuotaOptions): HealthQuota {
  const windows = new Map<number, { count: number; closesAt: number }>()
  return async (sessionId, records) => {
    const at = now()
    let window = windows.get(sessionId)
    if (window === undefined || window.closesAt <= at) {
      if (windows.size >= SWEEP_ABOVE) {
        for (const [key, old] of windows) if (old.closesAt <= at) windows.delete(key)
      }
      window = { count: 0, closesAt: at + MINUTE_MS }
      windows.set(sessionId, window)
    }
    window.count += Math.max(1, records)
    return window.count > perMinute ? window.closesAt - at : 0
  }
}
