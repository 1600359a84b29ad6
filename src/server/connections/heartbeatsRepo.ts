import type { QueryCreator } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"

/** A player's heartbeat, as the analytics endpoint hears it. */
export interface Heartbeat {
  readonly userId: number
  readonly sessionId: number
  readonly token: string
  readonly streamId: string
  readonly app: string
  readonly ip: string
  readonly network: string
  readonly at: Timestamp
}

/**
 * Refreshes the connections' `last_seen`, one statement for the lot. A connection that had gone
 * quiet (older than `liveSince`) or whose player stopped starts again: its `first_seen` moves to
 * now. One that staff or the account's limit ended stays ended. Beats of one connection collapse
 * into its latest, since one statement may not update a row twice. `db` may carry common table
 * expressions (PostgreSQL writes the heartbeats' analytics rows in the same statement).
 */
export async function recordHeartbeats(db: QueryCreator<Tables>, beats: ReadonlyArray<Heartbeat>, liveSince: Timestamp): Promise<void> {
  const latest = new Map<string, Heartbeat>()
  for (const beat of beats) {
    const key = JSON.stringify([beat.sessionId, beat.streamId, beat.app])
    const seen = latest.get(key)
    if (seen === undefined || seen.at <= beat.at) latest.set(key, beat)
  }
  if (latest.size === 0) return
  await db
    .insertInto("player_connections")
    .values(
      [...latest.values()].map((beat) => ({
        user_id: beat.userId,
        session_id: beat.sessionId,
        token: beat.token,
        stream_id: beat.streamId,
        app: beat.app,
        ip: beat.ip,
        network: beat.network,
        first_seen: beat.at,
        last_seen: beat.at
      }))
    )
    .onConflict((oc) =>
      oc
        .columns(["session_id", "stream_id", "app"])
        .doUpdateSet((eb) => ({
          first_seen: eb
            .case()
            .when(eb.or([eb("player_connections.last_seen", "<", liveSince), eb("player_connections.ended_at", "is not", null)]))
            .then(eb.ref("excluded.first_seen"))
            .else(eb.ref("player_connections.first_seen"))
            .end(),
          last_seen: eb.ref("excluded.last_seen"),
          ip: eb.ref("excluded.ip"),
          network: eb.ref("excluded.network"),
          ended_at: null,
          ended_reason: null
        }))
        .where((eb) => eb.or([eb("player_connections.ended_at", "is", null), eb("player_connections.ended_reason", "=", "stopped")]))
    )
    .execute()
}
