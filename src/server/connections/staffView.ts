import { type Kysely, PostgresAdapter } from "kysely"
import { type ConnectionSeverity, connectionSeverity } from "../../domain/Connection.ts"
import { CONNECTIONS_PAGE_SIZE } from "../../domain/Reports.ts"
import type { Tables } from "../db/schema.ts"
import { connectionsWithDetails, type WeighedConnection, weighableConnections } from "./connectionsRepo.ts"
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
  const [rows, refused] = await Promise.all([weighableConnections(db, since), unknownViewersSince(db, since, unknownLimit)])
  const live = currentConnections(rows, at)
  // most accounts play once, and one connection is never shared nor multiple: only accounts seen
  // more than once have their rows gathered and weighed
  const perAccount = new Map<string, number>()
  const viewers = new Map<string, number>()
  for (const row of live) {
    perAccount.set(row.email, (perAccount.get(row.email) ?? 0) + 1)
    viewers.set(row.streamId, (viewers.get(row.streamId) ?? 0) + 1)
  }
  const several = new Map<string, Array<WeighedConnection>>()
  for (const row of live) {
    if ((perAccount.get(row.email) ?? 0) < 2) continue
    const entries = several.get(row.email)
    if (entries === undefined) several.set(row.email, [row])
    else entries.push(row)
  }
  const severities = new Map<string, ConnectionSeverity>()
  const multiple: Array<{ email: string; connections: number }> = []
  for (const [email, entries] of several) {
    const severity = connectionSeverity(entries)
    severities.set(email, severity)
    if (severity === "strong") multiple.push({ email, connections: entries.length })
  }
  // the same rows on the same page every time: one account's rows that began together by id. The
  // database sent them in this order already, but compares emails by its own rules: this is the
  // page's (code units), which finds the rows sorted but where those rules differ.
  live.sort(byStartEmailAndId)
  const { number, size } = pageOf(live.length, page)
  const onPage = live.slice((number - 1) * size, number * size)
  // the device, the stream's name and the rest only for the rows shown: the others are only counted
  const details = new Map(
    (
      await connectionsWithDetails(
        db,
        onPage.map((row) => row.id)
      )
    ).map((row) => [row.id, row])
  )
  const shown = onPage.flatMap((row) => {
    const detailed = details.get(row.id)
    // ended and pruned in the moment between the two reads: counted, but no longer shown
    return detailed === undefined ? [] : [staffViewRow(detailed, detailed, severities.get(row.email) ?? "none")]
  })
  // an address that also plays with a valid grant is a viewer whose old address was refused
  const known = new Set(live.map((row) => row.ip))
  const unknownIps = refused.filter((ip) => !known.has(ip))
  return { summary: { rows: live.length, accounts: perAccount.size, multiple, viewers, unknownIps }, number, size, shown }
}

/** Oldest first, then by email (code units, as domain/Connection.ts's byStartThenEmail), then by id. */
const byStartEmailAndId = (a: WeighedConnection, b: WeighedConnection): number =>
  a.firstSeen - b.firstSeen || (a.email < b.email ? -1 : a.email > b.email ? 1 : 0) || a.id - b.id
