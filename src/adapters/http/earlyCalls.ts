import type { StartupRoute } from "../../domain/startupRoutes.ts"
import { apiRequestInit } from "./apiRequest.ts"
import { startupKey } from "./kickoff.ts"

export interface EarlyCalls {
  /** `fetch`, except that each early call's first request is answered with the response already on its way */
  readonly fetch: typeof globalThis.fetch
  /**
   * The JSON of a call's answer, undecoded (undefined when the call failed or the answer is not
   * JSON): a provisional reading for a warm start. The app decodes the same answer with the API
   * contract when it asks for it through `fetch`.
   */
  readonly json: (route: StartupRoute) => Promise<unknown>
}

/**
 * Sends start-up calls before the code that decodes their answers has loaded, so the network
 * and that code's loading overlap. Each answer is read twice from one response: once
 * provisionally (`json`), once by the app (`fetch`), which sees it as if it had just asked.
 */
export const startEarlyCalls = (
  fetch: typeof globalThis.fetch,
  token: string,
  routes: ReadonlyArray<StartupRoute>,
  /** the same calls, already sent by the page's inline script (kickoff.ts) */
  sentAlready?: ReadonlyMap<string, Promise<Response>>
): EarlyCalls => {
  const forApp = new Map<string, Promise<Response>>()
  const forWarm = new Map<string, Promise<unknown>>()
  for (const route of routes) {
    const sent = sentAlready?.get(startupKey(route.method, route.path)) ?? fetch(route.path, apiRequestInit(route.method, token))
    // cloned before either side reads the body; a failed request fails the app's call as it would have
    const copies = sent.then((response) => [response, response.clone()] as const)
    const response = copies.then(([original]) => original)
    // marked handled: a call the app never makes must not report its failure; the app still sees it
    response.catch(() => undefined)
    forApp.set(startupKey(route.method, route.path), response)
    forWarm.set(
      startupKey(route.method, route.path),
      copies
        .then(([, copy]) => (copy.ok && /json/i.test(copy.headers.get("content-type") ?? "") ? copy.json() : undefined))
        .catch(() => undefined)
    )
  }
  return {
    fetch: (input, init) => {
      const key = startupKey(init?.method ?? "GET", String(input))
      const early = forApp.get(key)
      if (early === undefined) return fetch(input, init)
      forApp.delete(key)
      return untilAborted(early, init?.signal)
    },
    json: (route) => forWarm.get(startupKey(route.method, route.path)) ?? Promise.resolve(undefined)
  }
}

/** The response, unless `signal` (the caller's deadline or cancel) aborts first, as fetch would. */
const untilAborted = (response: Promise<Response>, signal: AbortSignal | null | undefined): Promise<Response> => {
  if (signal === undefined || signal === null) return response
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason)
    if (signal.aborted) return abort()
    signal.addEventListener("abort", abort, { once: true })
    response.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort))
  })
}
