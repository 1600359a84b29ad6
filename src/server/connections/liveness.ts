/** A connection is live while it was seen (heartbeat or playlist) within this window. */
export const LIVE_CONNECTION_WINDOW_MS = 90 * 1000
/** How long a viewer switching streams or players may overlap with what it switched from. */
export const SWITCH_GRACE_MS = 15 * 1000

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
 */
export const isSuperseded = (connection: Presence, all: ReadonlyArray<Presence>): boolean =>
  all.some((newer) =>
    newer.id !== connection.id &&
    newer.userId === connection.userId &&
    newer.network === connection.network &&
    newer.firstSeen > connection.firstSeen &&
    connection.lastSeen <= newer.firstSeen + SWITCH_GRACE_MS)

/** The connections that are watching now: live, and not given way to a newer one. */
export function currentConnections<T extends Presence>(connections: ReadonlyArray<T>, now: number): Array<T> {
  const live = connections.filter((connection) => connection.lastSeen >= now - LIVE_CONNECTION_WINDOW_MS)
  return live.filter((connection) => !isSuperseded(connection, live))
}

/**
 * The streams an account is watching elsewhere, as its limit counts them: one per stream and
 * network (the same channel twice in one home is one), leaving out the session about to start,
 * whose other players are the ones it switches from.
 */
export function streamsElsewhere(current: ReadonlyArray<Presence>, starting: { readonly sessionId: number; readonly streamId: string; readonly network: string }): number {
  const slots = new Set<string>()
  for (const connection of current) {
    if (connection.sessionId === starting.sessionId) continue
    if (connection.streamId === starting.streamId && connection.network === starting.network) continue
    slots.add(JSON.stringify([connection.streamId, connection.network]))
  }
  return slots.size
}
