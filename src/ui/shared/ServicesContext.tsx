import { useActorRef, useSelector } from "@xstate/react"
import { createContext, useContext } from "react"
import type { ActorOptions, ActorRefFrom, AnyStateMachine, InspectionEvent, Observer } from "xstate"
import { type BootActor, selectSession } from "../../machines/shell/bootMachine.ts"
import type { notificationsMachine } from "../../machines/shell/notificationsMachine.ts"
import type { SessionActor } from "../../machines/shell/sessionMachine.ts"

/** The shell's long-lived actors. */
export interface ShellServices {
  readonly boot: BootActor
  readonly notifications: ActorRefFrom<typeof notificationsMachine>
  /** options every page's actor is created with (the inspector under `npm run dev` with `?inspect`) */
  readonly actorOptions: { readonly inspect?: Observer<InspectionEvent> }
}

/** The features whose page machines load with the first page that needs them, each in a chunk of its own. */
export type FeatureName =
  | "account"
  | "streams"
  | "guide"
  | "reminders"
  | "invites"
  | "support"
  | "payments"
  | "reports"
  | "audit"
  | "player"

/** What a feature's wiring (src/app/<feature>.ts) hands the views: its page machines, wired to their adapters. */
export type FeatureServices = Readonly<Record<string, AnyStateMachine | PlaceVideo>>

/** Puts the player's video element into its frame (one already playing, when the page was warm-started). */
export type PlaceVideo = (container: HTMLElement) => HTMLVideoElement

/**
 * What src/app hands to the views: the long-lived actors, and every page machine of the features
 * loaded so far, wired to its adapters, by machine id. A route loads its feature (see
 * RouteLoaders.feature) before its page renders.
 */
export interface Services extends ShellServices {
  readonly machines: ReadonlyMap<string, AnyStateMachine>
  readonly placeVideo?: PlaceVideo
}

export const ServicesContext = createContext<Services | null>(null)

export const useServices = (): Services => {
  const services = useContext(ServicesContext)
  if (services === null) throw new Error("useServices must be used inside ServicesContext")
  return services
}

/**
 * A page's actor of `machine`, as src/app wired it to its adapters, started with the page and
 * stopped with it: `const transactions = usePageActor(transactionsMachine)`.
 */
export const usePageActor = <TMachine extends AnyStateMachine>(
  machine: TMachine,
  options: ActorOptions<TMachine> = {}
): ActorRefFrom<TMachine> => {
  const services = useServices()
  const wired = services.machines.get(machine.id)
  if (wired === undefined) throw new Error(`The ${machine.id} machine is not wired: its feature has not loaded`)
  return useActorRef(wired as TMachine, { ...services.actorOptions, ...options } as never) as ActorRefFrom<TMachine>
}

/** The player page's frame for its video element; there once the player feature has loaded. */
export const usePlaceVideo = (): PlaceVideo => {
  const { placeVideo } = useServices()
  if (placeVideo === undefined) throw new Error("placeVideo is there once the player feature has loaded")
  return placeVideo
}

/** The session exists once boot is ready, which is the only time routes render. */
export const useSession = (): SessionActor => {
  const session = useSelector(useServices().boot, selectSession)
  if (session === undefined) throw new Error("useSession must be used after boot is ready")
  return session
}
