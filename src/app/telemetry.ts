import { fromPromise } from "xstate"
import type { CallApi } from "../adapters/http/http.ts"
import { browserStore, type KeyValueStore } from "../adapters/storage/storage.ts"
import { createAnalyticsActor } from "../adapters/telemetry/analyticsActor.ts"
import { browserSendBeacon } from "../adapters/telemetry/HealthBeacon.ts"
import { createHealthActor } from "../adapters/telemetry/healthActor.ts"
import { createMeteringActor, playerGrantOf } from "../adapters/telemetry/metering.ts"
import { createSyncedClock } from "../adapters/telemetry/syncedClock.ts"
import { createTimeSyncActor } from "../adapters/telemetry/timeSync.ts"
import type { TelemetrySession } from "../domain/TelemetryProtocol.ts"
import { playerTelemetryMachine } from "../machines/telemetry/playerTelemetryMachine.ts"

export interface TelemetryDeps {
  readonly callApi: CallApi
  readonly fetch: typeof globalThis.fetch
  readonly getToken: () => string | null
  readonly store?: KeyValueStore
}

const DEVICE_ID_KEY = "playerDeviceId"

const randomId = (): string => globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`

/** One id per browser, so health events of several visits can be told apart from several devices. */
const deviceIdIn = (store: KeyValueStore): string => {
  const known = store.getItem(DEVICE_ID_KEY)
  if (known !== null && known !== "") return known
  const created = randomId()
  store.setItem(DEVICE_ID_KEY, created)
  return created
}

/** The telemetry adapters as the player's telemetry machine's actors, sharing one synced clock. */
export const createTelemetry = ({ callApi, fetch, getToken, store = browserStore() }: TelemetryDeps) => {
  const clock = createSyncedClock()
  const playerTelemetry = playerTelemetryMachine.provide({
    actors: {
      openSession: fromPromise<TelemetrySession | null>(async ({ signal }) => ({
        grant: playerGrantOf(await callApi("playerToken", { signal })) ?? null,
        sessionId: randomId(),
        deviceId: deviceIdIn(store),
        pageUrl: globalThis.location?.href ?? ""
      })),
      analytics: createAnalyticsActor({ callApi, clock }),
      health: createHealthActor({ clock, fetch, getToken, sendBeacon: browserSendBeacon() }),
      metering: createMeteringActor({ callApi }),
      timeSync: createTimeSyncActor({ callApi, clock })
    }
  })
  return { playerTelemetry }
}
