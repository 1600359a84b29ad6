import type { Command } from "../cli/command.ts"
import { connections } from "../connections/connectionsFeature.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { healthQuota as sessionHealthQuota } from "./healthQuota.ts"
import { startTelemetryHousekeeping, type TelemetryHousekeepingOptions } from "./housekeeping.ts"
import { userMetering } from "./meteringCommands.ts"
import { telemetryHandlers } from "./telemetryHandlers.ts"
import { createTelemetryWrites } from "./telemetryWrites.ts"

export interface TelemetryFeatureOptions {
  /** Health records kept at most; the oldest are pruned by the housekeeping job. */
  readonly healthRowBudget?: number
  /** Health records one session may send a minute. */
  readonly healthRecordsPerMinute?: number
  /** Timing of the housekeeping job, which runs until the app closes. */
  readonly housekeeping?: Pick<TelemetryHousekeepingOptions, "everyMs" | "firstAfterMs" | "batch">
}

/** The player's telemetry: its token, metering, analytics, health beacons and the time it syncs to. */
export function telemetryFeature({ db, now, log, counters }: FeatureDeps, options: TelemetryFeatureOptions = {}): ServerFeature {
  const housekeeping = startTelemetryHousekeeping({
    db,
    now,
    ...options.housekeeping,
    healthRowBudget: options.healthRowBudget,
    onError: (error) => log.warn({ err: error }, "telemetry: pruning old rows failed; the next pass tries again")
  })
  const writes = createTelemetryWrites(db)
  const healthQuota = sessionHealthQuota({ counters, perMinute: options.healthRecordsPerMinute })
  return {
    handlers: telemetryHandlers({ now, writes, db, qoe: connections.qoeTracker(), healthQuota }),
    jobs: [housekeeping, { stop: () => writes.close() }]
  }
}

/** The operator's commands of this feature. */
export const telemetryCommands: ReadonlyArray<Command> = [userMetering]
