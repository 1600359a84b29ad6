import type { Command } from "../cli/command.ts"
import { connections } from "../connections/connectionsFeature.ts"
import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { startTelemetryHousekeeping, type TelemetryHousekeepingOptions } from "./housekeeping.ts"
import { userMetering } from "./meteringCommands.ts"
import { telemetryHandlers } from "./telemetryHandlers.ts"
import { type TelemetryBudget, type TelemetryKind, telemetryQuota } from "./telemetryQuotas.ts"
import { createTelemetryWrites } from "./telemetryWrites.ts"

export interface TelemetryFeatureOptions {
  /** Health records kept at most; the oldest are pruned by the housekeeping job. */
  readonly healthRowBudget?: number
  /** Budgets of rows per session and per account, by kind (TELEMETRY_BUDGETS unless given). */
  readonly budgets?: Partial<Readonly<Record<TelemetryKind, ReadonlyArray<TelemetryBudget>>>>
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
  const quota = telemetryQuota({ counters, budgets: options.budgets })
  return {
    handlers: telemetryHandlers({ now, writes, db, qoe: connections.qoeTracker(), quota }),
    jobs: [housekeeping, { stop: () => writes.close() }]
  }
}

/** The operator's commands of this feature. */
export const telemetryCommands: ReadonlyArray<Command> = [userMetering]
