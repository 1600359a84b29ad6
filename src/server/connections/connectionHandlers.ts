import type { Kysely } from "kysely"
import { byConnectionsThenEmail, type PlayingElsewhere, type StreamAccess } from "../../domain/Connection.ts"
import type { connectionsContract } from "../../domain/contract/connections.ts"
import type { ConnectionEntry, FeedStatus, StreamHealth } from "../../domain/Reports.ts"
import { audit } from "../audit/auditFeature.ts"
import type { Tables } from "../db/schema.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import { type ConnectionGate, presencesOf } from "./connectionGate.ts"
import { type ConnectionRow, endConnection, type LiveConnectionRow, openConnectionsOf } from "./connectionsRepo.ts"
import { currentConnections, LIVE_CONNECTION_WINDOW_MS } from "./liveness.ts"
import { deviceLabel, networkLabel } from "./network.ts"
import { staffView } from "./staffView.ts"
import { type GrantKey, readGrant } from "./streamGrants.ts"
import { streamHealth } from "./streamHealth.ts"

/** The most refused addresses the staff view lists. */
const MAX_UNKNOWN = 500
/** The streams' quality covers this much time, and is worked out again at most this often. */
const HEALTH_WINDOW_MS = 60 * 60 * 1000
const HEALTH_FOR_MS = 10 * 1000

export type ConnectionHandlers = HandlersOf<typeof connectionsContract>

export interface ConnectionDeps {
  readonly db: Kysely<Tables>
  readonly now: () => number
  readonly gate: ConnectionGate
  readonly key: () => Promise<GrantKey>
  readonly maxStreams: () => Promise<number>
  /** every relayed channel's feed as of `at` */
  readonly feeds: (at: number) => Promise<Array<FeedStatus>>
}

const iso = (ms: number): string => new Date(ms).toISOString()
const streamName = (row: Pick<ConnectionRow, "stream_title" | "stream_id">): string => row.stream_title ?? `Stream ${row.stream_id}`

const current = <Row extends LiveConnectionRow>(rows: ReadonlyArray<Row>, at: number): Array<Row> =>
  currentConnections(presencesOf(rows), at).map((presence) => presence.row)

const elsewhere = (row: ConnectionRow): PlayingElsewhere => ({
  id: row.id,
  stream: streamName(row),
  app: row.app,
  device: deviceLabel(row.user_agent, row.is_mobile),
  network: networkLabel(row.network),
  since: row.first_seen
})

export function connectionHandlers({ db, now, gate, key, maxStreams, feeds: feedsAt }: ConnectionDeps): ConnectionHandlers {
  let health: { readonly at: number; readonly value: Promise<Array<StreamHealth>> } | undefined
  const healthOf = (viewers: ReadonlyMap<string, number>, at: number): Promise<Array<StreamHealth>> => {
    if (health === undefined || at - health.at >= HEALTH_FOR_MS || at < health.at) {
      const value = streamHealth(db, iso(at - HEALTH_WINDOW_MS), viewers)
      health = { at, value }
      value.catch(() => (health = undefined))
    }
    return health.value
  }
  // Nothing to end is no error: the connection may have ended a moment ago by itself.
  const nothingEnded = { success: false, detail: "That connection is not live: it has ended already" } as const
  return {
    async connections({ query }) {
      const at = now()
      // one page of the table, or all of it for a caller that asked for no page (SPEC §3's shape)
      const page = query?.page === undefined ? undefined : Number(query.page)
      const { summary, number, size, shown } = await staffView(db, {
        at,
        windowMs: LIVE_CONNECTION_WINDOW_MS,
        unknownLimit: MAX_UNKNOWN,
        page
      })
      const connections: Record<string, Array<ConnectionEntry>> = {}
      for (const row of shown) {
        const entries = connections[row.email] ?? []
        connections[row.email] = entries
        entries.push({
          timestamp: row.first_seen,
          app: row.app,
          ip: row.ip,
          token: row.token,
          id: row.id,
          stream: streamName(row),
          network: row.network,
          device: deviceLabel(row.user_agent, row.is_mobile),
          lastSeen: row.last_seen,
          severity: row.severity
        })
      }
      const streams = await healthOf(summary.viewers, at)
      // only where there are relayed channels: the answer stays as it was for a server without
      const feeds = await feedsAt(at)
      const relayed = feeds.length === 0 ? {} : { feeds }
      if (query?.page === undefined) return { connections, unknownIps: summary.unknownIps, streams, ...relayed }
      return {
        connections,
        unknownIps: summary.unknownIps,
        streams,
        ...relayed,
        page: { number, size, rows: summary.rows },
        accounts: summary.accounts,
        multiple: summary.multiple.sort(byConnectionsThenEmail)
      }
    },

    async endConnection({ body, session, request }) {
      const at = now()
      const ended = await db.transaction().execute(async (trx) => {
        const connection = await endConnection(trx, body.id, "staff", iso(at))
        if (connection !== undefined) {
          const viewer = await trx
            .selectFrom("player_connections as c")
            .innerJoin("users as u", "u.id", "c.user_id")
            .select(["u.id", "u.email"])
            .where("c.id", "=", connection.id)
            .executeTakeFirst()
          await audit.record(
            trx,
            audit.staff(session, request),
            {
              action: "session.end",
              target: `connection ${connection.id}${viewer === undefined ? "" : ` of user ${viewer.id} (${viewer.email})`}`,
              detail: `session ${connection.session_id}, stream ${connection.stream_id}, ${connection.app}`
            },
            at
          )
        }
        return connection
      })
      if (ended === undefined) return nothingEnded
      gate.forget({ sessionId: ended.session_id, streamId: ended.stream_id, app: ended.app })
      return { success: true }
    },

    async streamAccess({ body, session, request }) {
      const grant = readGrant(await key(), body.grant)
      const limit = await maxStreams()
      const others = async (): Promise<Array<PlayingElsewhere>> => {
        const at = now()
        const rows = current(await openConnectionsOf(db, session.userId, iso(at - LIVE_CONNECTION_WINDOW_MS)), at)
        return rows
          .filter(
            (row) =>
              grant === undefined || !(row.session_id === grant.sessionId && row.stream_id === grant.streamId && row.app === grant.app)
          )
          .map(elsewhere)
      }
      const answer = async (access: StreamAccess["access"], reason?: StreamAccess["reason"]): Promise<StreamAccess> => ({
        success: true,
        access,
        ...(reason === undefined ? {} : { reason }),
        maxStreams: limit,
        playing: await others()
      })
      if (grant === undefined || grant.userId !== session.userId || grant.sessionId !== session.sessionId) return answer("invalid")
      const admission = await gate.admit(grant, request.ip)
      if (admission.ok) return answer("ok")
      switch (admission.reason) {
        case "limit":
          return answer("limit")
        case "staff":
        case "replaced":
          return answer("ended", admission.reason)
        case "signedOut":
          return answer("ended", "signedOut")
        case "expired":
          return answer("expired")
        default:
          return answer("invalid")
      }
    },

    async endStream({ body, session }) {
      // only the account's own: another account's id ends nothing
      const ended = await endConnection(db, body.id, "replaced", iso(now()), session.userId)
      if (ended === undefined) return nothingEnded
      gate.forget({ sessionId: ended.session_id, streamId: ended.stream_id, app: ended.app })
      return { success: true }
    },

    async closeStream({ body }) {
      const grant = readGrant(await key(), body.grant)
      if (grant !== undefined) await gate.stop(grant)
      return { success: true }
    }
  }
}
