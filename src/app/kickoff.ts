import { type KickoffScope, kickoff } from "../adapters/http/kickoff.ts"

// Inlined into index.html by the build (vite.config.ts), so it runs while the page is still
// being parsed: a player page's start-up calls go out before the app's first script arrives.
kickoff(window as unknown as KickoffScope)

/**
 * A prerendered page's form sent before the app's script has run would be posted by the browser
 * itself (and the typed password lost to a reload): it is held from the first moment of the page,
 * and main.tsx takes the held submit over when it runs.
 */
export interface EarlySubmits {
  /** Stops holding submits; answers the one held, if any. */
  release(): SubmitEvent | undefined
}

/** The window as this script leaves it for main.tsx. */
export interface EarlySubmitsScope {
  streamhubEarlySubmits?: EarlySubmits
}
let held: SubmitEvent | undefined
const hold = (event: Event): void => {
  const target = event.target
  if (!(target instanceof Element) || target.closest("[data-prerendered]") === null) return
  event.preventDefault()
  event.stopImmediatePropagation()
  held = event as SubmitEvent
}
document.addEventListener("submit", hold, { capture: true })
;(window as unknown as EarlySubmitsScope).streamhubEarlySubmits = {
  release: () => {
    document.removeEventListener("submit", hold, { capture: true })
    return held
  }
}
