import { type Kysely, PostgresAdapter, type RawBuilder, sql } from "kysely"
import type { ConnectionSeverity } from "../../domain/Connection.ts"
import type { Tables } from "../db/schema.ts"
import type { ConnectionDetails, LiveConnectionRow } from "./connectionsRepo.ts"
import { SWITCH_GRACE_MS } from "./liveness.ts"

// The staff view weighs every live connection (thousands during a match) to show one page of
// them. The weighing happens in the database, which sends back the page and a few counters
// instead of every row: the households rule of liveness.ts (`currentConnections`) and the
// severity rule of domain/Connection.ts (`connectionSeverity`) are written here once more in SQL,
// and the tests hold both to the same answers.

/** One row of the staff view's page: a live connection, its details and its account's severity. */
export interface StaffViewRow extends Omit<LiveConnectionRow, "user_id" | "session_id">, ConnectionDetails {
  readonly severity: ConnectionSeverity
}

/** A page's row, from however it was read: the connection, its details (none when gone) and its account's severity. */
export const staffViewRow = (
  row: Omit<LiveConnectionRow, "user_id" | "session_id">,
  details: ConnectionDetails | undefined,
  severity: ConnectionSeverity
): StaffViewRow => ({
  id: row.id,
  email: row.email,
  token: row.token,
  stream_id: row.stream_id,
  app: row.app,
  ip: row.ip,
  network: row.network,
  first_seen: row.first_seen,
  last_seen: row.last_seen,
  severity,
  stream_title: details?.stream_title ?? null,
  user_agent: details?.user_agent ?? null,
  is_mobile: details?.is_mobile ?? false
})

/** What the staff view counts over every live connection, and the refused addresses it lists. */
export interface StaffViewSummary {
  /** current connections in all */
  readonly rows: number
  /** accounts with a current connection */
  readonly accounts: number
  /** accounts whose connections are shared across devices, with how many they have */
  readonly multiple: Array<{ readonly email: string; readonly connections: number }>
  /** current connections per stream */
  readonly viewers: Map<string, number>
  /** the oldest refused addresses seen since the window began (at most the limit asked for), less those playing with a grant */
  readonly unknownIps: Array<string>
}

const isPostgres = (db: Kysely<Tables>): boolean => db.getExecutor().adapter instanceof PostgresAdapter

/**
 * A stored timestamp (ISO 8601 text) as epoch milliseconds, exactly as `Date.parse` reads it:
 * SQLite keeps a date as whole milliseconds, so the rounding only undoes its floating point.
 */
const msOf = (postgres: boolean, column: RawBuilder<unknown>): RawBuilder<number> =>
  postgres
    ? sql<number>`(extract(epoch from ${column}::timestamptz) * 1000)::bigint`
    : sql<number>`cast(round((julianday(${column}) - 2440587.5) * 86400000.0) as integer)`

/**
 * The current connections as of `at` (`current_rows`), each with its account's figures over them:
 * a connection seen within the live window, not ended, that has not given way to the newest start
 * in its household (same account, same network): it gives way when it began before that start and
 * was last seen no later than the switch grace after it; an account whose current
 * connections differ in both network and token (two distinct values have a different least and
 * greatest) is shared across devices. Window functions rather than joins: the plan holds however
 * little the planner knows of the table (a table filled a moment ago has no statistics yet).
 */
function currentConnections(db: Kysely<Tables>, at: number, windowMs: number): RawBuilder<unknown> {
  const postgres = isPostgres(db)
  const since = new Date(at - windowMs).toISOString()
  // Stored times are ISO 8601 in UTC with milliseconds, whose text sorts as the times do (the
  // live window and the view's order rely on it too); byte order, whatever the database's locale.
  const bytes = postgres ? sql`collate "C"` : sql``
  return sql`with live as (
      select c.id, c.user_id, u.email, c.session_id, c.token, c.stream_id, c.app, c.ip, c.network, c.first_seen, c.last_seen,
        max(c.first_seen ${bytes}) over (partition by c.user_id, c.network ${bytes}) as newest
      from player_connections c
      inner join users u on u.id = c.user_id
      where c.last_seen >= ${since} and c.ended_at is null
    ),
    current_rows as (
      select id, user_id, email, session_id, token, stream_id, app, ip, network, first_seen, last_seen,
        count(*) over account as connections,
        case when min(network ${bytes}) over account <> max(network ${bytes}) over account
          and min(token ${bytes}) over account <> max(token ${bytes}) over account then 1 else 0 end as shared
      from live
      where case when newest ${bytes} > first_seen ${bytes}
        then ${msOf(postgres, sql.ref("last_seen"))} > ${msOf(postgres, sql.ref("newest"))} + ${SWITCH_GRACE_MS}
        else 1 = 1 end
      window account as (partition by user_id)
    )`
}

const severityOf = (connections: number, shared: number): ConnectionSeverity =>
  shared === 1 ? "strong" : connections > 1 ? "light" : "none"

interface SummaryRow {
  readonly kind: "total" | "shared" | "stream" | "unknown"
  readonly name: string | null
  readonly a: number | string | null
  readonly b: number | string | null
  readonly seen: string | null
}

/**
 * The counters over every current connection and the refused addresses, in one statement. The
 * refused are the `unknownLimit` seen longest ago since the window began, less any that also
 * plays with a valid grant (a viewer whose old address was refused), oldest first.
 */
export async function staffViewSummary(db: Kysely<Tables>, at: number, windowMs: number, unknownLimit: number): Promise<StaffViewSummary> {
  const since = new Date(at - windowMs).toISOString()
  const { rows } = await sql<SummaryRow>`${currentConnections(db, at, windowMs)}
    select 'total' as kind, null as name, count(*) as a, count(distinct user_id) as b, null as seen from current_rows
    union all
    select 'shared', max(email), max(connections), null, null from current_rows where shared = 1 group by user_id
    union all
    select 'stream', stream_id, count(*), null, null from current_rows group by stream_id
    union all
    select 'unknown', r.ip, null, null, r.last_seen
      from (select ip, last_seen from unknown_viewers where last_seen >= ${since} order by last_seen limit ${unknownLimit}) r
      where not exists (select 1 from current_rows c where c.ip = r.ip)`.execute(db)
  let total = 0
  let accounts = 0
  const multiple: Array<{ email: string; connections: number }> = []
  const viewers = new Map<string, number>()
  const unknown: Array<{ ip: string; seen: string }> = []
  for (const row of rows) {
    if (row.kind === "total") {
      total = Number(row.a)
      accounts = Number(row.b)
    } else if (row.kind === "shared") multiple.push({ email: row.name ?? "", connections: Number(row.a) })
    else if (row.kind === "stream") viewers.set(row.name ?? "", Number(row.a))
    else unknown.push({ ip: row.name ?? "", seen: row.seen ?? "" })
  }
  unknown.sort((x, y) => (x.seen < y.seen ? -1 : x.seen > y.seen ? 1 : 0))
  return { rows: total, accounts, multiple, viewers, unknownIps: unknown.map((viewer) => viewer.ip) }
}

interface PageRow extends Omit<StaffViewRow, "severity" | "is_mobile"> {
  readonly connections: number | string
  readonly shared: number | string
  readonly is_mobile: unknown
}

/**
 * The current connections in the staff view's order (oldest start first, then email in code-unit
 * order as `byStartThenEmail` sorts, then id), `limit` of them from `offset` (all of them when
 * `limit` is undefined), each with its account's severity, its stream's name and its device.
 */
export async function staffViewPage(
  db: Kysely<Tables>,
  at: number,
  windowMs: number,
  offset: number,
  limit: number | undefined
): Promise<Array<StaffViewRow>> {
  // PostgreSQL orders text by the database's locale unless told otherwise; SQLite compares bytes
  const ordered = isPostgres(db) ? sql`collate "C"` : sql``
  const { rows } = await sql<PageRow>`${currentConnections(db, at, windowMs)}
    select r.id, r.email, r.token, r.stream_id, r.app, r.ip, r.network, r.first_seen, r.last_seen,
      r.connections, r.shared, s.user_agent, s.is_mobile, st.title as stream_title
    from (
      select * from current_rows
      order by first_seen ${ordered}, email ${ordered}, id
      ${limit === undefined ? sql`` : sql`limit ${limit} offset ${offset}`}
    ) r
    left join sessions s on s.id = r.session_id
    left join streams st on cast(st.id as text) = r.stream_id
    order by r.first_seen ${ordered}, r.email ${ordered}, r.id`.execute(db)
  // a session left joined may have no device, which counts as not mobile
  return rows.map((row) =>
    staffViewRow(
      { ...row, id: Number(row.id) },
      { stream_title: row.stream_title, user_agent: row.user_agent, is_mobile: Boolean(row.is_mobile) },
      severityOf(Number(row.connections), Number(row.shared))
    )
  )
}
