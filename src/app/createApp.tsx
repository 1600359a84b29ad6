import type { ReactElement } from "react"
import { createBrowserRouter, RouterProvider, type RouteObject } from "react-router-dom"
import { isMobileDevice } from "../adapters/device/device.ts"
import { createCallApi, createForbiddenSignal } from "../adapters/http/http.ts"
import { browserMediaDeps, type MediaDeps } from "../adapters/media/browserMedia.ts"
import type { Inspect } from "../adapters/devtools/inspector.ts"
import type { WarmPlayer } from "../adapters/media/warmPlayer.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import { createVolumeStore, type VolumeStore } from "../adapters/storage/volumeStore.ts"
import { ServicesContext, type Services } from "../ui/shared/ServicesContext.tsx"
import { BootGate } from "../ui/shell/BootGate.tsx"
import { createAppRoutes } from "../ui/shell/appRoutes.tsx"
import { createAccount } from "./account.ts"
import { createGuide } from "./guide.ts"
import { createInvites } from "./invites.ts"
import { createPayments } from "./payments.ts"
import { createReports } from "./reports.ts"
import { createPlayer } from "./player.ts"
import { createShell } from "./shell.ts"
import { createStreams } from "./streams.ts"
import { createSupport } from "./support.ts"
import { createTelemetry } from "./telemetry.ts"
import { watchHandover } from "./warmHandover.ts"

type Router = ReturnType<typeof createBrowserRouter>

export interface AppDeps {
  readonly fetch: typeof globalThis.fetch
  readonly storage: AppStorage
  readonly media?: MediaDeps
  readonly volumeStore?: VolumeStore
  readonly isMobile?: () => boolean
  readonly createRouter?: (routes: Array<RouteObject>) => Router
  /** a player page's stream, already started before the app (see main.tsx) */
  readonly warm?: WarmPlayer
  /** the Stately inspector, which every actor reports to (`?inspect` under `npm run dev`) */
  readonly inspect?: Inspect
}

export interface App {
  readonly element: ReactElement
  readonly router: Router
  readonly dispose: () => void
}

/** Wires each feature's machines to their adapters, merges them into the views' services and mounts the views. */
export const createApp = ({
  fetch,
  storage,
  media = browserMediaDeps,
  volumeStore = createVolumeStore(),
  isMobile = isMobileDevice,
  createRouter = createBrowserRouter,
  warm,
  inspect
}: AppDeps): App => {
  const actorOptions = inspect === undefined ? {} : { inspect }
  const forbidden = createForbiddenSignal()
  const callApi = createCallApi({ fetch, getToken: storage.getToken, onForbidden: forbidden.emit })
  const shell = createShell({ callApi, forbidden, storage, isMobile, actorOptions })
  const router = createRouter(createAppRoutes({ logout: shell.logoutLoader }))
  const navigate = (to: string, replace = false): void => void router.navigate(to, { replace })
  // SPEC §8: any 403 sends the visitor to /login, whichever page made the call; the session ends itself
  const stopForbidden = forbidden.subscribe(() => navigate("/login", true))
  const { playerTelemetry } = createTelemetry({ callApi, fetch, getToken: storage.getToken })
  const wiring = { callApi, storage, notifications: shell.notifications, boot: shell.boot, navigate }

  const services: Services = {
    boot: shell.boot,
    notifications: shell.notifications,
    actorOptions,
    ...createAccount({ callApi, notifications: shell.notifications, boot: shell.boot }),
    ...createStreams({ callApi, storage, notifications: shell.notifications, navigate }),
    ...createGuide({ callApi, storage, location: router.state.location, signedIn: storage.getToken() !== null }),
    ...createInvites(wiring),
    ...createSupport(wiring),
    ...createPayments(wiring),
    ...createReports(wiring),
    ...createPlayer({
      callApi,
      media,
      volumeStore,
      navigate,
      telemetry: playerTelemetry,
      location: router.state.location,
      signedIn: storage.getToken() !== null,
      warm
    })
  }

  shell.notifications.start()
  shell.boot.start()
  if (warm !== undefined) {
    watchHandover(warm, {
      boot: shell.boot,
      pathname: router.state.location.pathname,
      subscribeToRoutes: (listener) => router.subscribe((state) => listener(state.location.pathname))
    })
  }

  const element = (
    <ServicesContext value={services}>
      <BootGate>
        <RouterProvider router={router} />
      </BootGate>
    </ServicesContext>
  )
  return {
    element,
    router,
    dispose: () => {
      stopForbidden()
      shell.boot.stop()
      shell.notifications.stop()
      router.dispose()
    }
  }
}
