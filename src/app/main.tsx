import { type EarlyCalls, startEarlyCalls } from "../adapters/http/earlyCalls.ts"
import { type KickoffScope, STARTUP_ROUTES, takeKickoff } from "../adapters/http/kickoff.ts"
import { browserMediaDeps, watchFirstFrame } from "../adapters/media/browserMedia.ts"
import { startWarmPlayer } from "../adapters/media/warmPlayer.ts"
import { createStorage } from "../adapters/storage/storage.ts"
import { createVolumeStore } from "../adapters/storage/volumeStore.ts"
import { MAINTENANCE_ROUTE, STREAMS_ROUTE } from "../domain/startupRoutes.ts"
import { createWarmShell } from "../ui/player/warmShell.ts"

// The entry stays small (no React, router, state machines or schema library: a test keeps it so):
// a player page starts its stream first, and the rest of the app loads after its first frame.

/** How long a player page waits for its first frame before the rest of the app starts anyway. */
const WARM_PATIENCE_MS = 2500

const root = document.getElementById("root")
if (root === null) throw new Error('index.html must contain <div id="root">')

const plainFetch = globalThis.fetch.bind(globalThis)
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
  .then(({ mountApp }) => mountApp(root, { fetch: early?.fetch ?? plainFetch, storage, volumeStore, warm }))
  .catch((error: unknown) => {
    warm?.release()
    console.error(error)
    root.textContent = "StreamHub could not be loaded. Check your connection and reload the page."
  })
