import { cleanup, render } from "@testing-library/react"
import type { MediaDeps } from "../../src/adapters/media/hlsMedia.ts"
import { createStorage } from "../../src/adapters/storage/storage.ts"
import { createApp, type App } from "../../src/app/createApp.tsx"
import { createFakeBackend, type FakeBackendOptions } from "./fakeBackend.ts"

let current: App | undefined

/** The real app (router, machines, adapters) in jsdom, over a fake backend, at `path`. */
interface RenderOptions extends FakeBackendOptions {
  readonly path?: string
  readonly token?: string
  readonly media?: MediaDeps
  /** Replaces the fake backend's fetch, e.g. to fail the first calls. */
  readonly wrapFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch
}

export const renderApp = (options: RenderOptions = {}) => {
  window.history.replaceState(null, "", options.path ?? "/")
  const backend = createFakeBackend(options)
  const storage = createStorage(window.localStorage)
  if (options.token !== undefined) {
    backend.sessions.set(options.token, (options.users ?? [{ email: "ann@example.com" }])[0]?.email ?? "")
    storage.setToken(options.token)
  }
  const fetch = options.wrapFetch === undefined ? backend.fetch : options.wrapFetch(backend.fetch)
  current = createApp({ fetch, storage, isMobile: () => false, ...(options.media === undefined ? {} : { media: options.media }) })
  const view = render(current.element)
  return { ...view, backend, storage, app: current }
}

/** Unmounts and stops everything the last renderApp started, and forgets the browser's state. */
export const resetApp = () => {
  cleanup()
  current?.dispose()
  current = undefined
  window.localStorage.clear()
}
