import type { AnyActorRef, AnyActorScope } from "xstate"

/** The media adapter's system id: every player machine in the tree reaches it by this name. */
export const MEDIA_ID = "media"

/** The media adapter, or undefined while no video is attached (commands then have nothing to act on). */
export const mediaOf = (system: AnyActorScope["system"]): AnyActorRef | undefined => system.get(MEDIA_ID) as AnyActorRef | undefined
