import type { Counters } from "../http/counters.ts"

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
  readonly counters: Counters
  readonly perMinute?: number
}

/**
 * The quota in fixed one-minute windows per session, in the shared counters: counted without a
 * query per beacon, and across instances within a moment.
 */
export function healthQuota({ counters, perMinute = HEALTH_RECORDS_PER_MINUTE }: HealthQuotaOptions): HealthQuota {
  return async (sessionId, records) => {
    const { count, msLeft } = counters.addSoon(`health ${sessionId}`, MINUTE_MS, Math.max(1, records))
    return count > perMinute ? msLeft : 0
  }
}
