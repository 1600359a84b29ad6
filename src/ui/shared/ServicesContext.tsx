import { useSelector } from "@xstate/react"
import { createContext, useContext } from "react"
import type { ActorRefFrom, InspectionEvent, Observer } from "xstate"
import type { emailChangeMachine } from "../../machines/account/emailChangeMachine.ts"
import type { forgotPasswordMachine } from "../../machines/account/forgotPasswordMachine.ts"
import type { passwordResetMachine } from "../../machines/account/passwordResetMachine.ts"
import type { profileDetailsMachine } from "../../machines/account/profileDetailsMachine.ts"
import type { profilePasswordMachine } from "../../machines/account/profilePasswordMachine.ts"
import type { registrationMachine } from "../../machines/account/registrationMachine.ts"
import type { verifyEmailMachine } from "../../machines/account/verifyEmailMachine.ts"
import type { guideMachine } from "../../machines/guide/guideMachine.ts"
import type { invitesMachine } from "../../machines/invites/invitesMachine.ts"
import type { subscriptionMachine } from "../../machines/payments/subscriptionMachine.ts"
import type { transactionsMachine } from "../../machines/payments/transactionsMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import type { adminReportsMachine } from "../../machines/reports/adminReportsMachine.ts"
import { type BootActor, selectSession } from "../../machines/shell/bootMachine.ts"
import type { notificationsMachine } from "../../machines/shell/notificationsMachine.ts"
import type { SessionActor } from "../../machines/shell/sessionMachine.ts"
import type { streamSelectionMachine } from "../../machines/streams/streamSelectionMachine.ts"
import type { contactMachine } from "../../machines/support/contactMachine.ts"
import type { ticketDeskMachine } from "../../machines/support/ticketDeskMachine.ts"

/** The shell's long-lived actors. */
export interface ShellServices {
  readonly boot: BootActor
  readonly notifications: ActorRefFrom<typeof notificationsMachine>
  /** options every page's actor is created with (the inspector under `npm run dev` with `?inspect`) */
  readonly actorOptions: { readonly inspect?: Observer<InspectionEvent> }
}

/** The account pages' machines; each page starts its own actor from them. */
export interface AccountServices {
  readonly registration: typeof registrationMachine
  readonly verifyEmail: typeof verifyEmailMachine
  readonly forgotPassword: typeof forgotPasswordMachine
  readonly passwordReset: typeof passwordResetMachine
  readonly emailChange: typeof emailChangeMachine
  readonly profileDetails: typeof profileDetailsMachine
  readonly profilePassword: typeof profilePasswordMachine
}

export interface StreamsServices {
  readonly streamSelection: typeof streamSelectionMachine
}

/** The programme guide page's machine. */
export interface GuideServices {
  readonly guide: typeof guideMachine
}

/** The invites page's machine. */
export interface InvitesServices {
  readonly invites: typeof invitesMachine
}

/** The contact page's machine: the ticket form and the viewer's own tickets. */
export interface SupportServices {
  readonly contact: typeof contactMachine
  /** the staff desk */
  readonly ticketDesk: typeof ticketDeskMachine
}

/** The payments pages' machines. */
export interface PaymentsServices {
  readonly transactions: typeof transactionsMachine
  readonly subscription: typeof subscriptionMachine
}

/** The staff reports page's machine. */
export interface ReportsServices {
  readonly adminReports: typeof adminReportsMachine
}

export interface PlayerServices {
  readonly player: typeof playerMachine
  /** puts the player's video element into its frame (one already playing, when the page was warm-started) */
  readonly placeVideo: (container: HTMLElement) => HTMLVideoElement
}

/** Each feature's page machines, loaded with the first page that needs them. */
export interface FeatureServices {
  readonly account: AccountServices
  readonly streams: StreamsServices
  readonly guide: GuideServices
  readonly invites: InvitesServices
  readonly support: SupportServices
  readonly payments: PaymentsServices
  readonly reports: ReportsServices
  readonly player: PlayerServices
}

export type FeatureName = keyof FeatureServices

/**
 * What src/app hands to the views, feature by feature: the long-lived actors, and the page
 * machines already wired to their adapters. A feature's machines are there once a route that
 * needs them has loaded them (see RouteLoaders.feature), which is before its page renders.
 */
export type Services = ShellServices &
  AccountServices &
  StreamsServices &
  GuideServices &
  InvitesServices &
  SupportServices &
  PaymentsServices &
  ReportsServices &
  PlayerServices

export const ServicesContext = createContext<Services | null>(null)

export const useServices = (): Services => {
  const services = useContext(ServicesContext)
  if (services === null) throw new Error("useServices must be used inside ServicesContext")
  return services
}

/** The session exists once boot is ready, which is the only time routes render. */
export const useSession = (): SessionActor => {
  const session = useSelector(useServices().boot, selectSession)
  if (session === undefined) throw new Error("useSession must be used after boot is ready")
  return session
}
