import type { ReactElement } from "react"
import { createBrowserRouter, type RouteObject, RouterProvider } from "react-router-dom"
import type { AnyStateMachine } from "xstate"
import { isMobileDevice } from "../adapters/device/device.ts"
import type { Inspect } from "../adapters/devtools/inspector.ts"
import { createCallApi, createForbiddenSignal } from "../adapters/http/http.ts"
import { browserMediaDeps, type MediaDeps } from "../adapters/media/browserMedia.ts"
import type { WarmPlayer } from "../adapters/media/warmPlayer.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import { createVolumeStore, type VolumeStore } from "../adapters/storage/volumeStore.ts"
import {
  type FeatureName,
  type FeatureServices,
  type Services,
  ServicesContext,
  type ShellServices
} from "../ui/shared/ServicesContext.tsx"
import { createAppRoutes, PUBLIC_ROUTES_ID } from "../ui/shell/appRoutes.tsx"
import { BootGate } from "../ui/shell/BootGate.tsx"
import { createApiEndpoints } from "./apiEndpoints.ts"
import type { FeatureWiring } from "./featureWiring.ts"
import { createShell } from "./shell.ts"
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
  /** the site's check (maintenance, settings) and then the session */
  readonly boot: ShellServices["boot"]
  /** settles once the first page's route has loaded (a lazy page's chunk and its feature's machines) */
  readonly routed: Promise<void>
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
  const endpoints = createApiEndpoints()
  const callApi = createCallApi({ fetch, endpoints, getToken: storage.getToken, onForbidden: forbidden.emit })
  const shell = createShell({ callApi, forbidden, storage, isMobile, actorOptions })
  // A route loads its feature once the feature's chunk has arrived, by when the router below exists.
  let context: FeatureContext | undefined
  const shellServices = { boot: shell.boot, notifications: shell.notifications, actorOptions }
  const { services, loadFeature } = featureServices(shellServices, endpoints.whole, () => {
    if (context === undefined) throw new Error("a feature was loaded before the app was created")
    return context
  })
  const router = createRouter(createAppRoutes({ logout: shell.logoutLoader, feature: loadFeature }))
  const navigate = (to: string, replace = false): void => void router.navigate(to, { replace })
  // SPEC §8: any 403 sends the visitor to /login, whichever page of the signed-in area made the
  // call; the session ends itself. A public page calls nothing that needs a session: a 403 there
  // only says a token kept from an earlier visit has ended, and the page (a link from a mail,
  // say) stays to do its work.
  const onPublicPage = () => router.state.matches.some((match) => match.route.id === PUBLIC_ROUTES_ID)
  const stopForbidden = forbidden.subscribe(() => {
    if (!onPublicPage()) navigate("/login", true)
  })
  context = {
    wiring: { callApi, storage, notifications: shell.notifications, boot: shell.boot, navigate },
    opened: { location: router.state.location, signedIn: storage.getToken() !== null },
    fetch,
    media,
    volumeStore,
    warm
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
    boot: shell.boot,
    routed: whenRouted(router),
    dispose: () => {
      stopForbidden()
      shell.boot.stop()
      shell.notifications.stop()
      router.dispose()
    }
  }
}

const whenRouted = (router: Router): Promise<void> =>
  new Promise((resolve) => {
    if (router.state.initialized) {
      resolve()
      return
    }
    const stop = router.subscribe((state) => {
      if (!state.initialized) return
      stop()
      resolve()
    })
  })

/**
 * The services the views read, which grow by a feature's page machines when a route loads them. A
 * feature loads once; one whose chunk failed to arrive is asked for again by the next route of
 * that feature (the router keeps a route's own failed load until the page is reloaded, which its
 * error view offers).
 */
const featureServices = (
  shell: ShellServices,
  /** loads the API contract beyond the shell's endpoints (apiEndpoints.ts), which every feature calls */
  contract: () => Promise<unknown>,
  context: () => FeatureContext
): { readonly services: Services; readonly loadFeature: (name: FeatureName) => Promise<void> } => {
  const machines = new Map<string, AnyStateMachine>()
  const services: { -readonly [K in keyof Services]: Services[K] } = { ...shell, machines }
  const loading = new Map<FeatureName, Promise<void>>()
  const loadFeature = (name: FeatureName): Promise<void> => {
    const known = loading.get(name)
    if (known !== undefined) return known
    // the feature's calls need the whole contract: it loads alongside the feature's chunk
    const load = Promise.all([FEATURES[name](context), contract()]).then(
      ([loaded]) => {
        for (const value of Object.values(loaded)) {
          if (typeof value === "function") services.placeVideo = value
          else machines.set(value.id, value)
        }
      },
      (error: unknown) => {
        loading.delete(name)
        throw error
      }
    )
    loading.set(name, load)
    return load
  }
  return { services, loadFeature }
}

/** What the features' wiring needs from the app. */
interface FeatureContext {
  readonly wiring: FeatureWiring & { readonly navigate: (to: string, replace?: boolean) => void }
  /** where the visit started: a feature may start its page's calls early when it was opened there */
  readonly opened: { readonly location: { readonly pathname: string }; readonly signedIn: boolean }
  readonly fetch: typeof globalThis.fetch
  readonly media: MediaDeps
  readonly volumeStore: VolumeStore
  readonly warm: WarmPlayer | undefined
}

/** Each feature's machines in a chunk of their own, imported by the first route that needs them. */
const FEATURES: { readonly [K in FeatureName]: (context: () => FeatureContext) => Promise<FeatureServices> } = {
  account: async (context) => (await import("./account.ts")).createAccount(context().wiring),
  streams: async (context) => (await import("./streams.ts")).createStreams(context().wiring),
  guide: async (context) => (await import("./guide.ts")).createGuide({ ...context().wiring, ...context().opened }),
  reminders: async (context) => (await import("./reminders.ts")).createReminders(context().wiring),
  invites: async (context) => (await import("./invites.ts")).createInvites(context().wiring),
  support: async (context) => (await import("./support.ts")).createSupport(context().wiring),
  payments: async (context) => (await import("./payments.ts")).createPayments(context().wiring),
  reports: async (context) => (await import("./reports.ts")).createReports(context().wiring),
  audit: async (context) => (await import("./audit.ts")).createAudit(context().wiring),
  player: async (context) => {
    const [{ createPlayer }, { createTelemetry }] = await Promise.all([import("./player.ts"), import("./telemetry.ts")])
    const { wiring, opened, fetch, media, volumeStore, warm } = context()
    const { playerTelemetry } = createTelemetry({ callApi: wiring.callApi, fetch, getToken: wiring.storage.getToken })
    return createPlayer({ ...wiring, ...opened, media, volumeStore, telemetry: playerTelemetry, warm })
  }
}
