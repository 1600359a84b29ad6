import { playerPageOf } from "../../domain/playerRoute.ts"
import { TOKEN_STORAGE_KEY } from "../../domain/StorageKeys.ts"
import { MAINTENANCE_ROUTE, STREAMS_ROUTE, type StartupRoute } from "../../domain/startupRoutes.ts"
import { apiRequestInit } from "./apiRequest.ts"

/**
 * A player page's start-up calls, sent by a script inlined in the page itself (src/app/kickoff.ts),
 * one round trip before the app's first script has even arrived; `startEarlyCalls` takes them over.
 */
export interface Kickoff {
  /** the session they were sent with: another one makes them worthless */
  readonly token: string
  readonly calls: ReadonlyMap<string, Promise<Response>>
}

/** What the inline script needs of the page; the window, or a stand-in in tests. */
export interface KickoffScope {
  readonly location: { readonly pathname: string; readonly search: string }
  readonly localStorage: { getItem(key: string): string | null }
  readonly fetch: typeof globalThis.fetch
  __streamhubKickoff?: Kickoff
}

export const STARTUP_ROUTES: ReadonlyArray<StartupRoute> = [MAINTENANCE_ROUTE, STREAMS_ROUTE]

export const startupKey = (method: string, path: string): string => `${method.toUpperCase()} ${path}`

/**
 * Where a start-up call goes from a player page: the streams call names the stream and player,
 * so its answer brings that stream's playlist too (StreamsQuery). The app takes the answer over
 * as its own plain call's.
 */
export const startupPath = (route: StartupRoute, page: { readonly player: number; readonly index: number }): string =>
  route === STREAMS_ROUTE && page.index <= MAX_START_INDEX
    ? `${route.path}?${new URLSearchParams({ start: String(page.index), player: String(page.player) })}`
    : route.path

/** The largest stream index StreamsQuery takes; past it the list comes alone. */
const MAX_START_INDEX = 9999

/** Sends the start-up calls when the page is a player page and a session is stored; nothing otherwise. */
export const kickoff = (scope: KickoffScope): void => {
  const page = playerPageOf(scope.location.pathname, scope.location.search)
  if (page === null) return
  let token: string | null
  try {
    token = scope.localStorage.getItem(TOKEN_STORAGE_KEY)
  } catch {
    // storage refused (privacy settings): the app finds its session its own way
    return
  }
  if (token === null || token === "") return
  const calls = new Map<string, Promise<Response>>()
  for (const route of STARTUP_ROUTES) {
    const sent = scope.fetch(startupPath(route, page), apiRequestInit(route.method, token))
    // handled here: a call nobody takes over must not report its failure; whoever takes it still sees it
    sent.catch(() => undefined)
    calls.set(startupKey(route.method, route.path), sent)
  }
  scope.__streamhubKickoff = { token, calls }
}

/** The calls the inline script sent with this session, once: later callers ask the network. */
export const takeKickoff = (
  scope: Pick<KickoffScope, "__streamhubKickoff">,
  token: string
): ReadonlyMap<string, Promise<Response>> | undefined => {
  const sent = scope.__streamhubKickoff
  scope.__streamhubKickoff = undefined
  return sent?.token === token ? sent.calls : undefined
}
