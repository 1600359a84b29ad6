import { fromCallback } from "xstate"
import type { HealthCommand, HealthContext, HealthFact } from "../../domain/TelemetryProtocol.ts"
import { HealthBeacon, type HealthBeaconDeps } from "./HealthBeacon.ts"

/** The two targets whose events say the page is going away. */
export interface PageLifecycle {
  readonly window: Pick<EventTarget, "addEventListener" | "removeEventListener">
  readonly document: Pick<EventTarget, "addEventListener" | "removeEventListener"> & {
    readonly visibilityState: DocumentVisibilityState
  }
}

const browserPage = (): PageLifecycle | undefined =>
  typeof window === "undefined" || typeof document === "undefined" ? undefined : { window, document }

/**
 * Calls `onHidden` when the page is hidden or unloaded: the last moments a beacon can still
 * leave. Pagehide alone misses mobile tab switches, which only report a visibility change.
 */
export function watchPageHidden(page: PageLifecycle, onHidden: () => void): () => void {
  const onVisibility = (): void => {
    if (page.document.visibilityState === "hidden") onHidden()
  }
  page.window.addEventListener("pagehide", onHidden)
  page.document.addEventListener("visibilitychange", onVisibility)
  return () => {
    page.window.removeEventListener("pagehide", onHidden)
    page.document.removeEventListener("visibilitychange", onVisibility)
  }
}

export interface HealthActorDeps extends HealthBeaconDeps {
  /** Defaults to the browser's window and document. */
  readonly page?: PageLifecycle
}

/** A HealthBeacon for one playback; stopping the actor sends what is still waiting. */
export const createHealthActor = (deps: HealthActorDeps) =>
  fromCallback<HealthCommand, HealthContext>(({ input, sendBack, receive }) => {
    const beacon = new HealthBeacon(deps, input, (count, transport) =>
      sendBack({ type: "health.flushed", count, transport } satisfies HealthFact)
    )
    const page = deps.page ?? browserPage()
    const unwatch = page === undefined ? () => undefined : watchPageHidden(page, () => beacon.flush())
    receive((command) => {
      if (command.type === "health.record") beacon.record(command.event, command.currentTime, command.firstFrameMs)
      else beacon.flush()
    })
    return () => {
      unwatch()
      beacon.dispose()
    }
  })
