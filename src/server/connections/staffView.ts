import { type Kysely, PostgresAdapter } from "kysely"
import { byStartThenEmail, type ConnectionSeverity, connectionSeverity } from "../../domain/Connection.ts"
import { CONNECTIONS_PAGE_SIZE } from "../../domain/Reports.ts"
import type { Tables } from "../db/schema.ts"
import { presencesOf } from "./connectionGate.ts"
import { connectionsWithDetails, type LiveConnectionRow, openConnections } from "./connectionsRepo.ts"
import { currentConnections } from "./liveness.ts"
import { type StaffViewRow, type StaffViewSummary, staffViewPage, staffViewRow, staffViewSummary } from "./staffViewRepo.ts"
import { unknownViewersSince } from "./unknownViewersRepo.ts"

/** The staff view as of a moment: the counters over every live connection and one page of them. */
export interface StaffView {
  readonly summary: StaffViewSummary
  /** the page shown (the last one when the page asked for is past it) */
  readonly number: number
  /** rows a page holds: every row when no page was asked for */
  readonly size: number
  readonly shown: ReadonlyArray<StaffViewRow>
}

export interface StaffViewOptions {
  readonly at: number
  readonly windowMs: number
  /** the most refused addresses listed */
  readonly unknownLimit: number
  /** the page asked for, from 1; undefined for every row on one page */
  readonly page: number | undefined
}

const pageOf = (rows: number, page: number | undefined): { readonly number: number; readonly size: number } => {
  const size = page === undefined ? Math.max(1, rows) : CONNECTIONS_PAGE_SIZE
  const pages = Math.max(1, Math.ceil(rows / size))
  return { number: Math.min(page ?? 1, pages), size }
}

/**
 * Weighs every live connection and shows a page of them. On PostgreSQL the database does the
 * weighing (staffViewRepo.ts) and sends the page and the counters, since reading thousands of rows
 * through the driver costs more than the weighing itself. SQLite runs in this process, where
 * reading the rows is cheap and its window functions are not: the rows are weighed here, by the
 * same rules (liveness.ts, domain/Connection.ts).
 */
export function staffView(db: Kysely<Tables>, options: StaffViewOptions): Promise<StaffView> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? weighedInDatabase(db, options) : weighedHere(db, options)
}

export async function weighedInDatabase(db: Kysely<Tables>, { at, windowMs, unknownLimit, page }: StaffViewOptions): Promise<StaffView> {
  // the page asked for comes alongside the counters, and again only when it was past the last
  const pageAt = (number: number) =>
    page === undefined
      ? staffViewPage(db, at, windowMs, 0, undefined)
      : staffViewPage(db, at, windowMs, (number - 1) * CONNECTIONS_PAGE_SIZE, CONNECTIONS_PAGE_SIZE)
  const [summary, firstTry] = await Promise.all([staffViewSummary(db, at, windowMs, unknownLimit), pageAt(page ?? 1)])
  const { number, size } = pageOf(summary.rows, page)
  return { summary, number, size, shown: number === (page ?? 1) ? firstTry : await pageAt(number) }
}

export async function weighedHere(db: Kysely<Tables>, { at, windowMs, unknownLimit, page }: StaffViewOptions): Promise<StaffView> {
  const since = new Date(at - windowMs).toISOString()
  const [rows, refused] = await Promise.all([openConnections(db, since), unknownViewersSince(db, since, unknownLimit)])
  const live = currentConnections(presencesOf(rows), at).map((presence) => presence.row)
  const byAccount = new Map<string, Array<LiveConnectionRow>>()
  const viewers = new Map<string, number>()
  for (const row of live) {
    const entries = byAccount.get(row.email)
    if (entries === undefined) byAccount.set(row.email, [row])
    else entries.push(row)
    viewers.set(row.stream_id, (viewers.get(row.stream_id) ?? 0) + 1)
  }
  const severities = new Map<string, ConnectionSeverity>()
  const multiple: Array<{ email: string; connections: number }> = []
  for (const [email, entries] of byAccount) {
    // most accounts play once: one connection is never shared nor multiple
    const severity = entries.length === 1 ? "none" : connectionSeverity(entries)
    severities.set(email, severity)
    if (severity === "strong") multiple.push({ email, connections: entries.length })
  }
  // the same rows on the same page every time: one account's rows that began together by id
  const ordered = live
    .map((row) => ({ row, timestamp: row.first_seen, email: row.email }))
    .sort((a, b) => byStartThenEmail(a, b) || a.row.id - b.row.id)
  const { number, size } = pageOf(ordered.length, page)
  const onPage = ordered.slice((number - 1) * size, number * size).map(({ row }) => row)
  // the device and the stream's name only for the rows shown: the rest are only counted
  const details = new Map(
    (
      await connectionsWithDetails(
        db,
        onPage.map((row) => row.id)
      )
    ).map((row) => [row.id, row])
  )
  const shown = onPage.map((row) => staffViewRow(row, details.get(row.id), severities.get(row.email) ?? "none"))
  // an address that also plays with a valid grant is a viewer whose old address was refused
  const known = new Set(live.map((row) => row.ip))
  const unknownIps = refused.filter((ip) => !known.has(ip))
  return { summary: { rows: ordered.length, accounts: byAccount.size, multiple, viewers, unknownIps }, number, size, shown }
}
