import type { WarmPlayer } from "../adapters/media/warmPlayer.ts"
import { type BootActor, selectBootError, selectMaintenanceNotice } from "../machines/shell/bootMachine.ts"

/** How long the app may take to put its player around the warm-started video before that is let go. */
const HANDOVER_GRACE_MS = 4000

/**
 * The warm start is let go (its stand-in removed, its stream stopped) when the app will not show
 * its player after all: the visitor went elsewhere, maintenance or a failed start-up took over,
 * or the page never asked for the video. After a hand-over, letting go changes nothing.
 */
export const watchHandover = (
  warm: WarmPlayer,
  deps: {
    readonly boot: BootActor
    readonly subscribeToRoutes: (listener: (pathname: string) => void) => () => void
    readonly pathname: string
  }
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
