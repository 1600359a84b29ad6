import { type EarlyCalls, startEarlyCalls } from "../adapters/http/earlyCalls.ts"
import { type KickoffScope, STARTUP_ROUTES, takeKickoff } from "../adapters/http/kickoff.ts"
import { browserMediaDeps, watchFirstFrame } from "../adapters/media/browserMedia.ts"
import { startWarmPlayer } from "../adapters/media/warmPlayer.ts"
import { createStorage } from "../adapters/storage/storage.ts"
import { createVolumeStore } from "../adapters/storage/volumeStore.ts"
import { MAINTENANCE_ROUTE, STREAMS_ROUTE } from "../domain/startupRoutes.ts"
import { createWarmShell } from "../ui/player/warmShell.ts"
import type { EarlySubmitsScope } from "./kickoff.ts"

// The entry stays small (no React, router, state machines or schema library: a test keeps it so):
// a player page starts its stream first, and the rest of the app loads after its first frame.

/** How long a player page waits for its first frame before the rest of the app starts anyway. */
const WARM_PATIENCE_MS = 2500

const root = document.getElementById("root")
if (root === null) throw new Error('index.html must contain <div id="root">')

/** What the inline kick-off script left: its hold on the page's submits (kickoff.ts). */
const earlySubmits = (window as unknown as EarlySubmitsScope).streamhubEarlySubmits

/**
 * A prerendered page's form sent before the app has taken the page over is held here (the browser
 * would send it itself), and sent again by the app once it has (mountApp.tsx). The inline kick-off
 * script held it until now (kickoff.ts): a submit it caught is taken over.
 */
const holdSubmits = (page: HTMLElement): (() => SubmitEvent | undefined) => {
  let held: SubmitEvent | undefined
  const hold = (event: Event) => {
    event.preventDefault()
    event.stopImmediatePropagation()
    held = event as SubmitEvent
  }
  // capturing, and before React listens on the same element: React never sees a held submit
  page.addEventListener("submit", hold, { capture: true })
  held = earlySubmits?.release()
  return () => {
    page.removeEventListener("submit", hold, { capture: true })
    return held
  }
}

const plainFetch = globalThis.fetch.bind(globalThis)
const heldSubmits = root.dataset.prerendered === undefined ? undefined : holdSubmits(root)
if (heldSubmits === undefined) earlySubmits?.release()
const storage = createStorage()
const volumeStore = createVolumeStore()
let early: EarlyCalls | undefined
const warm = startWarmPlayer(window.location, {
  answers: (token) => {
    early = startEarlyCalls(plainFetch, token, STARTUP_ROUTES, takeKickoff(window as unknown as KickoffScope, token))
    return { maintenance: early.json(MAINTENANCE_ROUTE), streams: early.json(STREAMS_ROUTE) }
  },
  media: browserMediaDeps,
  token: storage.getToken(),
  volume: volumeStore.read,
  createShell: () => createWarmShell(root),
  watchFirstFrame: (element, report) => watchFirstFrame(element, () => performance.now(), report),
  patienceMs: WARM_PATIENCE_MS
})

void (warm?.settled ?? Promise.resolve())
  .then(() => import("./mountApp.tsx"))
  // the app decodes the early answers with the API contract, as if it had just asked
  .then(({ mountApp }) => mountApp(root, { fetch: early?.fetch ?? plainFetch, storage, volumeStore, warm }, heldSubmits))
  .catch((error: unknown) => {
    warm?.release()
    console.error(error)
    root.textContent = "StreamHub could not be loaded. Check your connection and reload the page."
  })
