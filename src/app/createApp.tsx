import type { ReactElement } from "react"
import { createBrowserRouter, RouterProvider, type RouteObject } from "react-router-dom"
import { createActor, fromPromise } from "xstate"
import type { ApiResult } from "../domain/api.ts"
import { isMobileDevice } from "../adapters/device/device.ts"
import { browserMediaDeps, type MediaDeps } from "../adapters/media/browserMedia.ts"
import { createCallApi } from "../adapters/http/http.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import { createVideoElement } from "../adapters/media/videoElement.ts"
import { createVolumeStore, type VolumeStore } from "../adapters/storage/volumeStore.ts"
import type { WarmPlayer } from "../adapters/media/warmPlayer.ts"
import { announcementMachine } from "../machines/shell/announcementMachine.ts"
import { bootMachine } from "../machines/shell/bootMachine.ts"
import { loginFormMachine } from "../machines/account/loginFormMachine.ts"
import { notificationsMachine, type NotificationContent } from "../machines/shell/notificationsMachine.ts"
import { sessionMachine } from "../machines/shell/sessionMachine.ts"
import { streamRequestMachine } from "../machines/streams/streamRequestMachine.ts"
import { streamSelectionMachine } from "../machines/streams/streamSelectionMachine.ts"
import { AccountServicesContext } from "../ui/account/AccountServicesContext.tsx"
import { createAppRoutes } from "../ui/shell/appRoutes.tsx"
import { BootGate } from "../ui/shell/BootGate.tsx"
import { ServicesContext, type Services } from "../ui/shared/ServicesContext.tsx"
import { createAccountServices } from "./account.ts"
import { createLogoutLoader } from "./shell.ts"
import { createPlayerMachine } from "./player.ts"
import { createPlayerTelemetry } from "./telemetry.ts"
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
}

export interface App {
  readonly element: ReactElement
  readonly router: Router
  readonly dispose: () => void
}

/** The one place that joins machines to adapters and mounts the views. */
export const createApp = ({
  fetch,
  storage,
  media = browserMediaDeps,
  volumeStore = createVolumeStore(),
  isMobile = isMobileDevice,
  createRouter = createBrowserRouter,
  warm
}: AppDeps): App => {
  // the router is created once boot exists (its loaders reach the session through it); nothing
  // navigates before then
  const navigate = (to: string, replace = false): void => void router.navigate(to, { replace })

  // boot is declared below; a 403 can only arrive after it has started
  let sessionOf: () => { send: (event: { type: "session.expired" }) => void } | undefined = () => undefined
  const callApi = createCallApi({
    fetch,
    getToken: storage.getToken,
    onForbidden: () => {
      const session = sessionOf()
      if (session === undefined) navigate("/login")
      else session.send({ type: "session.expired" })
    }
  })

  const notifications = createActor(notificationsMachine)
  // called from inside another machine's action: sending synchronously would run the
  // notifications machine's own actions in the middle of that one, which xstate forbids
  const notify = (content: NotificationContent): void =>
    queueMicrotask(() => notifications.send({ type: "notification.add", ...content }))
  const loadStreams = fromPromise<ApiResult<"streams"> | undefined>(({ signal }) => callApi("streams", { signal }))

  const loginForm = loginFormMachine.provide({
    actors: {
      login: fromPromise(({ input, signal }) => callApi("login", { body: { ...input, isMobile: isMobile() }, signal }))
    }
  })
  const announcement = announcementMachine.provide({
    actors: {
      loadLatest: fromPromise(async ({ signal }) => ({
        answer: await callApi("announcement", { signal }),
        lastSeenToken: storage.getAnnouncementToken()
      }))
    },
    actions: { rememberAnnouncement: (_, { token }) => storage.setAnnouncementToken(token) }
  })
  const session = sessionMachine.provide({
    actors: {
      loginForm,
      announcement,
      loadUser: fromPromise(({ signal }) => callApi("userInfo", { body: { isMobile: isMobile() }, signal })),
      logout: fromPromise(({ signal }) => callApi("logout", { signal })),
      logoutAll: fromPromise(({ signal }) => callApi("logoutAll", { signal }))
    },
    actions: {
      storeToken: (_, { token }) => storage.setToken(token),
      forgetToken: () => storage.removeToken(),
      navigate: (_, { to }) => navigate(to)
    }
  })
  const boot = createActor(
    bootMachine.provide({
      actors: {
        checkMaintenance: fromPromise(({ signal }) => callApi("maintenance", { signal })),
        loadSettings: fromPromise(({ signal }) => callApi("siteSettings", { signal })),
        session
      }
    }),
    { input: { token: storage.getToken() } }
  )
  sessionOf = () => boot.getSnapshot().children.session
  const router = createRouter(createAppRoutes({ logout: createLogoutLoader(boot) }))
  const accountServices = createAccountServices({
    callApi,
    notify,
    // sent from inside a page machine's action, hence deferred like notify
    refreshUser: () => queueMicrotask(() => boot.getSnapshot().children.session?.send({ type: "session.refreshUser" }))
  })

  const services: Services = {
    boot,
    notifications,
    streamSelection: streamSelectionMachine.provide({
      actors: {
        readPlayerChoice: fromPromise(async () => storage.getPlayerChoice()),
        loadStreams,
        streamRequest: streamRequestMachine.provide({
          actors: { submitTicket: fromPromise(({ input, signal }) => callApi("createTicket", { body: input, signal })) },
          actions: { notify: (_, content) => notify(content) }
        })
      },
      actions: {
        navigate: (_, { to }) => navigate(to),
        persistPlayerChoice: (_, { choice }) => storage.setPlayerChoice(choice)
      }
    }),
    placeVideo: (container) => warm?.placeVideo(container) ?? createVideoElement(container),
    player: createPlayerMachine({
      callApi,
      media: warm === undefined ? media : { ...media, adopt: warm.adopt },
      volumeStore,
      navigate,
      telemetry: createPlayerTelemetry({ callApi, fetch, getToken: storage.getToken }),
      location: router.state.location,
      signedIn: storage.getToken() !== null
    })
  }

  notifications.start()
  boot.start()
  if (warm !== undefined) {
    watchHandover(warm, {
      boot,
      pathname: router.state.location.pathname,
      subscribeToRoutes: (listener) => router.subscribe((state) => listener(state.location.pathname))
    })
  }

  const element = (
    <ServicesContext value={services}>
      <AccountServicesContext value={accountServices}>
        <BootGate>
          <RouterProvider router={router} />
        </BootGate>
      </AccountServicesContext>
    </ServicesContext>
  )
  return {
    element,
    router,
    dispose: () => {
      boot.stop()
      notifications.stop()
      router.dispose()
    }
  }
}
