import type { WarmPlayer } from "../adapters/warmPlayer.ts"
import { selectBootError, selectMaintenanceNotice, type BootActor } from "../machines/bootMachine.ts"

/** How long the app may take to put its player around the warm-started video before that is let go. */
const HANDOVER_GRACE_MS = 4000

/**
 * One early answer, used once and only when it is usable; every other call asks the server.
 * A refused session, say, is asked again so the app's own handling of it runs.
 */
export const earlyOnce = <A>(
  early: Promise<A | undefined> | undefined,
  usable: (answer: A) => boolean,
  fresh: (signal?: AbortSignal) => Promise<A | undefined>
) => {
  let pending = early
  return (signal?: AbortSignal): Promise<A | undefined> => {
    const first = pending
    pending = undefined
    if (first === undefined) return fresh(signal)
    return first.then((answer) => (answer !== undefined && usable(answer) ? answer : fresh(signal)))
  }
}

/**
 * The warm start is let go (its stand-in removed, its stream stopped) when the app will not show
 * its player after all: the visitor went elsewhere, maintenance or a failed start-up took over,
 * or the page never asked for the video. After a hand-over, letting go changes nothing.
 */
export const watchHandover = (
  warm: WarmPlayer,
  deps: { readonly boot: BootActor; readonly subscribeToRoutes: (listener: (pathname: string) => void) => () => void; readonly pathname: string }
): void => {
  const stopRoutes = deps.subscribeToRoutes((pathname) => {
    if (pathname !== deps.pathname) warm.release()
  })
  const boot = deps.boot.subscribe((snapshot) => {
    if (selectMaintenanceNotice(snapshot) !== null || selectBootError(snapshot) !== null) warm.release()
  })
  setTimeout(() => {
    warm.release()
    stopRoutes()
    boot.unsubscribe()
  }, HANDOVER_GRACE_MS)
}
