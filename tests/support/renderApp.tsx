import { cleanup, render } from "@testing-library/react"
import type { MediaDeps } from "../../src/adapters/media/browserMedia.ts"
import { createStorage } from "../../src/adapters/storage/storage.ts"
import { type App, createApp } from "../../src/app/createApp.tsx"
import { recordCalls } from "./injectFetch.ts"
import { type InProcessServer, startInProcessServer } from "./inProcessServer.ts"
import type { Seed } from "./serverSeed.ts"

// Everything renderApp started and resetApp has not stopped yet.
let running: Array<{ app?: App; server: InProcessServer }> = []

interface RenderOptions extends Seed {
  /** Where the page opens; a function for links that need the server first (an invite, a mailed token). */
  readonly path?: string | ((server: InProcessServer) => string | Promise<string>)
  /** Opens the page with a session of the first seeded user, signed in through the login endpoint. */
  readonly signedIn?: boolean
  readonly media?: MediaDeps
  /** Wraps the app's fetch, e.g. to fail the first calls; calls it answers itself are not recorded. */
  readonly wrapFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch
}

export type Rendered = Awaited<ReturnType<typeof renderApp>>

/** The real app (router, machines, adapters) in jsdom, over the real server in-process, at `path`. */
export const renderApp = async (options: RenderOptions = {}) => {
  const server = await startInProcessServer(options)
  const started: { app?: App; server: InProcessServer } = { server }
  running.push(started)
  try {
    const path = typeof options.path === "function" ? await options.path(server) : options.path
    const storage = createStorage(window.localStorage)
    const token = options.signedIn === true ? await server.signIn(server.users[0]?.email ?? "") : null
    if (token !== null) storage.setToken(token)
    const recorded = recordCalls(server.fetch)
    const fetch = options.wrapFetch === undefined ? recorded.fetch : options.wrapFetch(recorded.fetch)
    window.history.replaceState(null, "", path ?? "/")
    const app = createApp({ fetch, storage, isMobile: () => false, ...(options.media === undefined ? {} : { media: options.media }) })
    started.app = app
    const view = render(app.element)
    return { ...view, server, calls: recorded.calls, inFlight: recorded.inFlight, storage, app, token }
  } catch (error) {
    await resetApp()
    throw error
  }
}

/** Unmounts and stops every app renderApp started, closes their servers and databases, and forgets the browser's state. */
export const resetApp = async () => {
  cleanup()
  const stopping = running
  running = []
  for (const { app } of stopping) app?.dispose()
  window.localStorage.clear()
  await Promise.all(stopping.map(({ server }) => server.dispose()))
}
