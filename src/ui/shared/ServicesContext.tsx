import { useSelector } from "@xstate/react"
import { createContext, useContext } from "react"
import type { ActorRefFrom } from "xstate"
import { selectSession, type BootActor } from "../../machines/shell/bootMachine.ts"
import type { notificationsMachine } from "../../machines/shell/notificationsMachine.ts"
import type { playerMachine } from "../../machines/player/playerMachine.ts"
import type { SessionActor } from "../../machines/shell/sessionMachine.ts"
import type { streamSelectionMachine } from "../../machines/streams/streamSelectionMachine.ts"

/**
 * What src/app hands to the views: the long-lived actors, and the page machines already wired to
 * their adapters (each page starts its own actor from them).
 */
export interface Services {
  readonly boot: BootActor
  readonly notifications: ActorRefFrom<typeof notificationsMachine>
  readonly streamSelection: typeof streamSelectionMachine
  readonly player: typeof playerMachine
  /** puts the player's video element into its frame (one already playing, when the page was warm-started) */
  readonly placeVideo: (container: HTMLElement) => HTMLVideoElement
}

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
