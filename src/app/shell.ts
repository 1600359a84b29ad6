import type { LoaderFunction } from "react-router-dom"
import { redirect } from "react-router-dom"
import { createActor, fromCallback, fromPromise, type InspectionEvent, type Observer, waitFor } from "xstate"
import type { CallApi, ForbiddenSignal } from "../adapters/http/http.ts"
import type { AppStorage } from "../adapters/storage/storage.ts"
import { loginFormMachine } from "../machines/account/loginFormMachine.ts"
import { resendVerificationMachine } from "../machines/account/resendVerificationMachine.ts"
import { announcementMachine } from "../machines/shell/announcementMachine.ts"
import { type BootActor, bootMachine, selectSession } from "../machines/shell/bootMachine.ts"
import { notificationsMachine } from "../machines/shell/notificationsMachine.ts"
import { selectIsAuthenticated, sessionMachine } from "../machines/shell/sessionMachine.ts"

export interface ShellDeps {
  readonly callApi: CallApi
  readonly forbidden: ForbiddenSignal
  readonly storage: AppStorage
  readonly isMobile: () => boolean
  /** options every actor of the app is created with (the inspector, when asked for) */
  readonly actorOptions: { readonly inspect?: Observer<InspectionEvent> }
}

/** Boot (maintenance, site settings, the session and its login form) and the notifications, wired to their adapters. */
export const createShell = ({ callApi, forbidden, storage, isMobile, actorOptions }: ShellDeps) => {
  const notifications = createActor(notificationsMachine, actorOptions)
  const session = sessionMachine.provide({
    actors: {
      loginForm: loginFormMachine.provide({
        actors: {
          login: fromPromise(({ input, signal }) => callApi("login", { body: { ...input, isMobile: isMobile() }, signal })),
          resendVerification: resendVerificationMachine.provide({
            actors: { resend: fromPromise(({ input, signal }) => callApi("resendVerification", { body: input, signal })) }
          })
        }
      }),
      announcement: announcementMachine.provide({
        actors: {
          loadLatest: fromPromise(async ({ signal }) => ({
            answer: await callApi("announcement", { signal }),
            lastSeenToken: storage.getAnnouncementToken()
          }))
        },
        actions: { rememberAnnouncement: (_, { token }) => storage.setAnnouncementToken(token) }
      }),
      loadUser: fromPromise(({ signal }) => callApi("userInfo", { body: { isMobile: isMobile() }, signal })),
      logout: fromPromise(({ signal }) => callApi("logout", { signal })),
      logoutAll: fromPromise(({ signal }) => callApi("logoutAll", { signal })),
      watchForbidden: fromCallback(({ sendBack }) => forbidden.subscribe(() => sendBack({ type: "session.expired" })))
    },
    actions: {
      storeToken: (_, { token }) => storage.setToken(token),
      forgetToken: () => storage.removeToken()
    }
  })
  const boot = createActor(
    bootMachine.provide({
      actors: {
        checkMaintenance: fromPromise(({ signal }) => callApi("maintenance", { signal })),
        loadSettings: fromPromise(({ signal }) => callApi("siteSettings", { signal })),
        watchVisibility: fromCallback(({ sendBack }) => {
          const onChange = () => {
            if (document.visibilityState === "visible") sendBack({ type: "page.visible" })
          }
          document.addEventListener("visibilitychange", onChange)
          return () => document.removeEventListener("visibilitychange", onChange)
        }),
        session
      }
    }),
    { ...actorOptions, input: { token: storage.getToken() } }
  )
  return {
    boot,
    notifications,
    /** Opening /logout ends the session; the view only shows how that is going. */
    logoutLoader: createLogoutLoader(boot)
  }
}

/**
 * Opening /logout is the logout command (SPEC §2): the route's loader hands it to the session,
 * which makes the call and, on success only, forgets the token, after which /logout moves on to
 * /login. A visitor without a session has nothing to end and goes straight to /login.
 */
const createLogoutLoader =
  (boot: BootActor): LoaderFunction =>
  async ({ request }) => {
    // /logout may be the first page opened: the session exists once boot has checked maintenance
    const snapshot = await waitFor(boot, (state) => selectSession(state) !== undefined, { signal: request.signal })
    const session = selectSession(snapshot)
    if (session === undefined || !selectIsAuthenticated(session.getSnapshot())) return redirect("/login")
    session.send({ type: "session.logout" })
    return null
  }
