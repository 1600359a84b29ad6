import type { FeatureDeps, ServerFeature } from "../http/serverFeature.ts"
import { createHousekeeping } from "./housekeeping.ts"
import { telemetryHandlers } from "./telemetryHandlers.ts"

/** The player's telemetry: its token, metering, analytics, health beacons and the time it syncs to. */
export function telemetryFeature({ db, now, log }: FeatureDeps): ServerFeature {
  const housekeeping = createHousekeeping({
    db,
    now,
    onError: (error) => log.warn({ err: error }, "telemetry: pruning old rows failed")
  })
  return { handlers: telemetryHandlers({ db, now, housekeeping }) }
}
