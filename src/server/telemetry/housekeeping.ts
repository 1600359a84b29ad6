import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import { connections } from "../connections/connectionsFeature.ts"
import { pruneTelemetry } from "./telemetryRepo.ts"

export const TELEMETRY_RETENTION_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

export interface Housekeeping {
  /** Call after each telemetry write; now and then it prunes old rows. */
  afterWrite(): Promise<void>
}

export interface HousekeepingOptions {
  readonly db: Kysely<Tables>
  readonly now: () => number
  /** Writes between prunes. */
  readonly every?: number
  readonly retentionMs?: number
  readonly onError?: (error: unknown) => void
}

/**
 * Counting writes instead of running a timer keeps pruning proportional to growth and leaves
 * nothing running to stop at shutdown. The first write after a start prunes, so a server that
 * restarts often still catches up.
 */
export function createHousekeeping(options: HousekeepingOptions): Housekeeping {
  const every = options.every ?? 500
  const retentionMs = options.retentionMs ?? TELEMETRY_RETENTION_DAYS * DAY_MS
  let writes = 0
  let running: Promise<void> | undefined
  return {
    async afterWrite() {
      writes += 1
      if ((writes - 1) % every !== 0 || running !== undefined) return
      const cutoff = new Date(options.now() - retentionMs).toISOString()
      running = Promise.all([pruneTelemetry(options.db, cutoff), connections.prune(options.db, cutoff)])
        .then(() => undefined, (error: unknown) => options.onError?.(error))
        .finally(() => {
          running = undefined
        })
      // A failed prune must not fail the write that triggered it; the next round tries again.
      await running
    }
  }
}
