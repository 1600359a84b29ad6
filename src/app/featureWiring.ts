import type { ActorRefFrom } from "xstate"
import type { CallApi } from "../adapters/http/http.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import type { BootActor } from "../machines/shell/bootMachine.ts"
import type { notificationsMachine } from "../machines/shell/notificationsMachine.ts"

/** What createApp hands each feature's wiring: the http adapter, storage, the shell's actors and navigation. */
export interface FeatureWiring {
  readonly callApi: CallApi
  readonly storage: AppStorage
  readonly notifications: ActorRefFrom<typeof notificationsMachine>
  readonly boot: BootActor
  readonly navigate: (to: string) => void
}
