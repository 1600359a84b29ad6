import { browserMediaDeps, watchFirstFrame } from "../adapters/browserMedia.ts"
import { createCallApi } from "../adapters/http.ts"
import { createStorage } from "../adapters/storage.ts"
import { createVolumeStore } from "../adapters/volumeStore.ts"
import { startWarmPlayer } from "../adapters/warmPlayer.ts"
import { mountWarmShell } from "../ui/player/warmShell.ts"

/** How long a player page waits for its first frame before the rest of the app starts anyway. */
const WARM_PATIENCE_MS = 2500

const root = document.getElementById("root")
if (root === null) throw new Error("index.html must contain <div id=\"root\">")

const fetch = globalThis.fetch.bind(globalThis)
const storage = createStorage()
const volumeStore = createVolumeStore()
// The app's code is most of what a visit downloads and runs: a player page starts its stream first.
const warm = startWarmPlayer(window.location, {
  // a refused session is the app's to handle: it signs the visitor out and shows the login page
  callApi: createCallApi({ fetch, getToken: storage.getToken, onForbidden: () => undefined }),
  media: browserMediaDeps,
  token: storage.getToken(),
  volume: volumeStore.read,
  mountShell: () => mountWarmShell(root),
  watchFirstFrame: (element, report) => watchFirstFrame(element, () => performance.now(), report),
  patienceMs: WARM_PATIENCE_MS
})

void (warm?.settled ?? Promise.resolve())
  .then(() => import("./mountApp.tsx"))
  .then(({ mountApp }) => mountApp(root, { fetch, storage, volumeStore, warm }))
  .catch((error: unknown) => {
    warm?.release()
    console.error(error)
    root.textContent = "StreamHub could not be loaded. Check your connection and reload the page."
  })
