import { type ActorRefFrom, assign, fromCallback, fromPromise, type SnapshotFrom, sendTo, setup } from "xstate"
import type { Answer } from "../../domain/contract/answer.ts"
import { DEFAULT_SITE_SETTINGS, type SiteSettings } from "../../domain/SiteSettings.ts"
import type { LoginSucceeded } from "../account/loginFormMachine.ts"
import { CONNECTION_HINT, failureHint, RETRY_HINT } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import { sessionMachine } from "./sessionMachine.ts"

export const BOOT_FAILURE_MESSAGE = "We could not reach the service. Please check your connection and try again."
/** The service answered, but not with what it should have. */
export const BOOT_BROKEN_MESSAGE = "The service is not answering as it should. Please try again in a moment."

export interface MaintenanceNotice {
  readonly title: string
  readonly firstRowText: string
  readonly secondRowText: string
}

/** How often a page showing the maintenance notice asks whether maintenance is over. */
export const MAINTENANCE_RECHECK_MS = 30_000

/** The tab was hidden and is shown again: whatever it shows may be out of date. */
export interface PageVisible {
  readonly type: "page.visible"
}

/** `login.succeeded` comes from a page that signed in on its own (a mailed sign-in link). */
export type BootEvent = { readonly type: "boot.retry" } | { readonly type: "session.refreshUser" } | LoginSucceeded | PageVisible

interface BootContext {
  /** The stored session token, handed to the session once the app is ready. */
  readonly token: string | null
  readonly notice: MaintenanceNotice | null
  readonly error: string | null
  readonly settings: SiteSettings
}

export const bootMachine = setup({
  types: {
    context: {} as BootContext,
    events: {} as BootEvent,
    input: {} as { readonly token: string | null },
    children: {} as { session: "session" }
  },
  actors: {
    checkMaintenance: fromPromise<Answer<"maintenance">>(notProvided("checkMaintenance")),
    loadSettings: fromPromise<Answer<"siteSettings">>(notProvided("loadSettings")),
    /** Sends `page.visible` each time the tab is shown again. */
    watchVisibility: fromCallback(notProvided("watchVisibility")),
    session: sessionMachine
  },
  delays: { maintenanceRecheck: MAINTENANCE_RECHECK_MS },
  guards: {
    isUnderMaintenance: (_, answer: Answer<"maintenance">) => answer._tag === "ok" && answer.body.maintenanceMode,
    isRunning: (_, answer: Answer<"maintenance">) => answer._tag === "ok" && !answer.body.maintenanceMode
  },
  actions: {
    keepNotice: assign((_, answer: Answer<"maintenance">) => ({
      notice:
        answer._tag === "ok"
          ? { title: answer.body.title, firstRowText: answer.body.firstRowText, secondRowText: answer.body.secondRowText }
          : null
    })),
    // one sentence of ours: what the adapter saw (a status, a content type) is no help to people
    keepFailure: assign((_, answer: Answer<"maintenance">) => {
      const hint = failureHint(answer)
      return { error: hint === CONNECTION_HINT ? BOOT_FAILURE_MESSAGE : hint === RETRY_HINT ? BOOT_BROKEN_MESSAGE : hint }
    }),
    clearFailure: assign({ error: null }),
    // the server fills every setting with a default, so a failed load just keeps ours
    keepSettings: assign((_, answer: Answer<"siteSettings">) =>
      answer._tag === "ok" && answer.body.success ? { settings: answer.body.data } : {}
    )
  }
}).createMachine({
  id: "boot",
  context: ({ input }) => ({ token: input.token, notice: null, error: null, settings: DEFAULT_SITE_SETTINGS }),
  initial: "checking",
  states: {
    checking: {
      tags: ["loading"],
      invoke: {
        src: "checkMaintenance",
        onDone: [
          {
            guard: { type: "isUnderMaintenance", params: answerOf },
            target: "maintenance",
            actions: { type: "keepNotice", params: answerOf }
          },
          { guard: { type: "isRunning", params: answerOf }, target: "configuring" },
          { target: "failed", actions: { type: "keepFailure", params: answerOf } }
        ]
      }
    },
    configuring: {
      tags: ["loading"],
      invoke: {
        src: "loadSettings",
        onDone: { target: "ready", actions: { type: "keepSettings", params: answerOf } }
      }
    },
    /**
     * Nothing else runs while the site is in maintenance: no session, no calls but the check,
     * asked again now and then and whenever the tab is shown again, so an open tab leaves the
     * notice by itself once maintenance is over. A failed check keeps the notice.
     */
    maintenance: {
      initial: "waiting",
      invoke: { src: "watchVisibility" },
      states: {
        waiting: {
          after: { maintenanceRecheck: "rechecking" },
          on: { "page.visible": "rechecking" }
        },
        rechecking: {
          invoke: {
            src: "checkMaintenance",
            onDone: [
              {
                guard: { type: "isUnderMaintenance", params: answerOf },
                target: "waiting",
                actions: { type: "keepNotice", params: answerOf }
              },
              { guard: { type: "isRunning", params: answerOf }, target: "#boot.configuring" },
              { target: "waiting" }
            ],
            onError: "waiting"
          }
        }
      }
    },
    failed: {
      on: { "boot.retry": { target: "checking", actions: "clearFailure" } }
    },
    ready: {
      invoke: {
        id: "session",
        src: "session",
        input: ({ context }) => ({ token: context.token })
      },
      on: {
        // the account pages change what the session shows (username, email)
        "session.refreshUser": { actions: sendTo("session", { type: "session.refreshUser" }) },
        // a page that signed in by itself hands the session its token
        "login.succeeded": { actions: sendTo("session", ({ event }) => ({ type: "login.succeeded", token: event.token })) }
      }
    }
  }
})

export type BootSnapshot = SnapshotFrom<typeof bootMachine>
export type BootActor = ActorRefFrom<typeof bootMachine>

export const selectIsBooting = (snapshot: BootSnapshot): boolean => snapshot.hasTag("loading")
export const selectMaintenanceNotice = (snapshot: BootSnapshot): MaintenanceNotice | null =>
  snapshot.matches("maintenance") ? snapshot.context.notice : null
export const selectBootError = (snapshot: BootSnapshot): string | null => (snapshot.matches("failed") ? snapshot.context.error : null)
export const selectSettings = (snapshot: BootSnapshot): SiteSettings => snapshot.context.settings
export const selectSession = (snapshot: BootSnapshot) => snapshot.children.session
