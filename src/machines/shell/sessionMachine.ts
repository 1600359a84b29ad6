import { type ActorRefFrom, assign, fromCallback, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, type AnyAnswer, dataOf, detailOf, isSuccess } from "../../domain/contract/answer.ts"
import type { UserInfo } from "../../domain/User.ts"
import { type LoginSucceeded, loginFormMachine } from "../account/loginFormMachine.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf, fromAnswer } from "../shared/params.ts"
import { announcementMachine } from "./announcementMachine.ts"

export type SessionEvent =
  | LoginSucceeded
  | { readonly type: "session.logout" }
  /** 'Log out all devices' on /profile, pressed once: it asks to be confirmed before acting. */
  | { readonly type: "session.askLogoutAll" }
  | { readonly type: "session.cancelLogoutAll" }
  /** 'Log out all devices' confirmed: every session of the account ends, this one included. */
  | { readonly type: "session.logoutAll" }
  /** The account's details changed (username, email): read the user info again. */
  | { readonly type: "session.refreshUser" }
  /** Any 403: the server no longer knows this token. */
  | { readonly type: "session.expired" }

interface SessionContext {
  readonly token: string | null
  readonly user: UserInfo | null
}

const sessionSetup = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as { readonly token: string | null },
    children: {} as { loginForm: "loginForm"; announcement: "announcement" }
  },
  actors: {
    loginForm: loginFormMachine,
    announcement: announcementMachine,
    loadUser: fromPromise<Answer<"userInfo">>(notProvided("loadUser")),
    logout: fromPromise<Answer<"logout">>(notProvided("logout")),
    logoutAll: fromPromise<Answer<"logoutAll">>(notProvided("logoutAll")),
    /** Reports `session.expired` whenever a call meets a 403. */
    watchForbidden: fromCallback(notProvided("watchForbidden"))
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    loggedOut: (_, answer: Answer<"logout"> | Answer<"logoutAll">) => isSuccess(answer)
  },
  actions: {
    storeToken: (_, _params: { readonly token: string }) => {},
    forgetToken: () => {},
    /** SPEC §4: a failed logout shows nothing; it is only written to the console. */
    reportLogoutFailure: (_, params: { readonly detail: string }) => {
      console.error(`Logout failed: ${params.detail}`)
    },
    startSession: assign((_, params: { readonly token: string }) => ({ token: params.token, user: null })),
    endSession: assign({ token: null, user: null }),
    // without user info the area still works; only staff links stay hidden
    keepUser: assign((_, answer: Answer<"userInfo">) => ({ user: dataOf(answer) ?? null }))
  }
})

/** Asks for the user info: after a sign-in, after a change, and for a stored token's first answer. */
const loadingUser = sessionSetup.createStateConfig({
  tags: ["loadingUser"],
  // a change made while the answer is on its way (an email confirmed in this tab) is asked for again
  on: { "session.refreshUser": { target: "loadingUser", reenter: true } },
  invoke: { src: "loadUser", onDone: { target: "idle", actions: { type: "keepUser", params: answerOf } } }
})

/** A token handed out by the login form or a mailed sign-in link becomes the session. */
const signIn = {
  target: "#session.authenticated",
  actions: [
    { type: "startSession", params: ({ event }: { readonly event: LoginSucceeded }) => ({ token: event.token }) },
    { type: "storeToken", params: ({ event }: { readonly event: LoginSucceeded }) => ({ token: event.token }) }
  ]
} as const

const logoutFailure = (answer: AnyAnswer) => ({ detail: detailOf(answer) ?? "the server did not confirm it" })

/**
 * SPEC §4: logging out, of this device or of every device alike: the call first; only a
 * `success: true` forgets the token and ends the session (the pages then go to /login), anything
 * else leaves the session as it was and is only written to the console.
 */
const loggingOut = (src: "logout" | "logoutAll", tag: "busy" | "loggingOutAll") =>
  sessionSetup.createStateConfig({
    tags: [tag],
    // a second click must not start a second call
    on: { "session.logout": {}, "session.logoutAll": {} },
    invoke: {
      src,
      onDone: [
        { guard: { type: "loggedOut", params: answerOf }, target: "#session.anonymous", actions: ["forgetToken", "endSession"] },
        { target: "idle", actions: { type: "reportLogoutFailure", params: fromAnswer(logoutFailure) } }
      ]
    }
  })

export const sessionMachine = sessionSetup.createMachine({
  id: "session",
  context: ({ input }) => ({ token: input.token, user: null }),
  initial: "resolving",
  on: {
    "session.expired": {
      target: ".anonymous",
      actions: ["forgetToken", "endSession"]
    }
  },
  states: {
    resolving: {
      // a stored token may be one the server has since forgotten (it expired, or every device was
      // logged out): held as a session, but checked before login, register and verify turn away
      always: [{ guard: "hasToken", target: "authenticated.checking" }, { target: "anonymous" }]
    },
    anonymous: {
      invoke: { id: "loginForm", src: "loginForm" },
      on: { "login.succeeded": signIn }
    },
    // the pages follow this state: /login and the authenticated area redirect on it
    authenticated: {
      invoke: [{ id: "announcement", src: "announcement" }, { src: "watchForbidden" }],
      on: {
        // also while the user info is still loading: /logout may be the first page opened
        "session.logout": { target: ".loggingOut" },
        "session.logoutAll": { target: ".loggingOutAll" },
        // a mailed sign-in link followed in a browser that has a session: the link's session
        // (perhaps another account's) replaces it, and everything it showed is read again
        "login.succeeded": { ...signIn, reenter: true }
      },
      initial: "loadingUser",
      states: {
        // a stored token's first answer; a 403 ends the session (session.expired)
        checking: loadingUser,
        loadingUser,
        idle: {
          on: { "session.refreshUser": { target: "loadingUser" }, "session.askLogoutAll": { target: "confirmingLogoutAll" } }
        },
        // nothing ends until the person confirms (session.logoutAll) or takes it back
        confirmingLogoutAll: {
          tags: ["confirmingLogoutAll"],
          on: { "session.cancelLogoutAll": { target: "idle" }, "session.refreshUser": { target: "loadingUser" } }
        },
        loggingOut: loggingOut("logout", "busy"),
        loggingOutAll: loggingOut("logoutAll", "loggingOutAll")
      }
    }
  }
})

export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>
export type SessionActor = ActorRefFrom<typeof sessionMachine>

export const selectIsAuthenticated = (snapshot: SessionSnapshot): boolean => snapshot.matches("authenticated")
export const selectUser = (snapshot: SessionSnapshot): UserInfo | null => snapshot.context.user
export const selectIsLoadingUser = (snapshot: SessionSnapshot): boolean => snapshot.hasTag("loadingUser")
/** A token from storage the server has not answered for yet: it may no longer be a session. */
export const selectIsCheckingSession = (snapshot: SessionSnapshot): boolean => snapshot.matches({ authenticated: "checking" })
export const selectIsStaff = (snapshot: SessionSnapshot): boolean => snapshot.context.user?.is_staff === true
export const selectIsLoggingOut = (snapshot: SessionSnapshot): boolean => snapshot.hasTag("busy")
export const selectIsLoggingOutAll = (snapshot: SessionSnapshot): boolean => snapshot.hasTag("loggingOutAll")
/** 'Log out all devices' was pressed once and waits to be confirmed. */
export const selectIsConfirmingLogoutAll = (snapshot: SessionSnapshot): boolean => snapshot.hasTag("confirmingLogoutAll")
export const selectLoginForm = (snapshot: SessionSnapshot) => snapshot.children.loginForm
export const selectAnnouncement = (snapshot: SessionSnapshot) => snapshot.children.announcement
