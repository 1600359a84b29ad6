/** A connection is live while it was seen (heartbeat or playlist) within this window. */
export const LIVE_CONNECTION_WINDOW_MS = 90 * 1000
/**
 * How long a viewer switching streams or players may overlap with what it switched from: the old
 * player stops at the switch, so only a request already under way can land after the new start.
 */
export const SWITCH_GRACE_MS = 5 * 1000

/** What liveness is judged on; times are epoch ms. */
export interface Presence {
  readonly id: number
  readonly userId: number
  readonly sessionId: number
  readonly streamId: string
  readonly network: string
  readonly firstSeen: number
  readonly lastSeen: number
}

/**
 * A connection gives way to a newer one of the same account on the same network when it was last
 * seen no later than the grace window after the newer one began: a household switching channels
 * or players is one viewer, not two. A second screen that goes on playing shows up again once the
 * window has passed.
 *
 * The newest start of a household is the only one that matters: a connection that gives way to
 * any newer one gives way to the newest, which began last. So one pass finds each household's
 * newest start and a second judges every connection against it, in time linear in the
 * connections (staff see thousands at once).
 */
export function currentConnections<T extends Presence>(connections: ReadonlyArray<T>, now: number): Array<T> {
  const live = connections.filter((connection) => connection.lastSeen >= now - LIVE_CONNECTION_WINDOW_MS)
  const newestStart = new Map<number, Map<string, number>>()
  for (const connection of live) {
    const networks = newestStart.get(connection.userId) ?? new Map<string, number>()
    newestStart.set(connection.userId, networks)
    networks.set(connection.network, Math.max(networks.get(connection.network) ?? -Infinity, connection.firstSeen))
  }
  return live.filter((connection) => {
    const newest = newestStart.get(connection.userId)?.get(connection.network) ?? -Infinity
    return !(newest > connection.firstSeen && connection.lastSeen <= newest + SWITCH_GRACE_MS)
  })
}

/**
 * The streams an account is watching elsewhere, as its limit counts them: one per stream and
 * network (the same channel twice in one home is one), leaving out the session about to start,
 * whose other players are the ones it switches from.
 */
export function streamsElsewhere(
  current: ReadonlyArray<Presence>,
  starting: { readonly sessionId: number; readonly streamId: string; readonly network: string }
): number {
  const slots = new Set<string>()
  for (const connection of current) {
    if (connection.sessionId === starting.sessionId) continue
    if (connection.streamId === starting.streamId && connection.network === starting.network) continue
    slots.add(JSON.stringify([connection.streamId, connection.network]))
  }
  return slots.size
}
