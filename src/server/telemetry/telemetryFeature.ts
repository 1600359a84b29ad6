import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { startTelemetryHousekeeping } from "./housekeeping.ts"
import { telemetryHandlers } from "./telemetryHandlers.ts"
import { createTelemetryWrites } from "./telemetryWrites.ts"
import { connections } from "../connections/connectionsFeature.ts"

/** The player's telemetry: its token, metering, analytics, health beacons and the time it syncs to. */
export function telemetryFeature({ db, now, log }: FeatureDeps): ServerFeature {
  const housekeeping = startTelemetryHousekeeping({
    db,
    now,
    onError: (error) => log.warn({ err: error }, "telemetry: pruning old rows failed; the next pass tries again")
  })
  const writes = createTelemetryWrites(db)
  return {
    handlers: telemetryHandlers({ now, writes, db, qoe: connections.qoeTracker() }),
    jobs: [housekeeping, { stop: () => writes.close() }]
  }
}
