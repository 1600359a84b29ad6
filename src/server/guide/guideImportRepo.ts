import { CompiledQuery, type Kysely, SqliteAdapter, sql } from "kysely"
import type { Tables, Timestamp } from "../db/schema.ts"
import { MAX_PROGRAMME_MS } from "./programmeTimeline.ts"

/** One programme as staged and stored: instants as ISO strings, like every timestamp of the schema. */
export interface ProgrammeRow {
  readonly channel_id: string
  readonly start_at: Timestamp
  readonly stop_at: Timestamp
  readonly title: string
  readonly subtitle: string
}

/** What an import found of a channel: its display name, if the file gave one. */
export interface ImportedChannel {
  readonly id: string
  readonly name: string | undefined
}

/** The span of a channel's programmes in the file: the part of its guide the file replaces. */
export interface GuideWindow {
  readonly from: Timestamp
  readonly to: Timestamp
}

// 500 rows of 6 values stay far below SQLite's 32,766 and PostgreSQL's 65,535 bound parameters.
export const ROWS_PER_STATEMENT = 500

const chunks = <T>(items: ReadonlyArray<T>, size: number): Array<ReadonlyArray<T>> =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

const iso = (ms: number): Timestamp => new Date(ms).toISOString()

export type Stage = (rows: ReadonlyArray<ProgrammeRow>) => Promise<void>

const isSqlite = (db: Kysely<Tables>): boolean => db.getExecutor().adapter instanceof SqliteAdapter

/**
 * Makes sure the staging table is there. On SQLite it is a temporary table of the same name,
 * which shadows the stored one for this connection: its writes skip the write-ahead log and the
 * sync to disk each commit would cost, and a killed import leaves nothing behind. Every query
 * names `guide_staging` alike on both dialects.
 */
export async function prepareStaging(db: Kysely<Tables>): Promise<void> {
  if (!isSqlite(db)) return
  await sql`create temp table if not exists guide_staging (
    import_id text not null, channel_id text not null, start_at text not null, stop_at text not null, title text not null, subtitle text not null
  )`.execute(db)
}

/**
 * Adds programmes to an import in progress, one commit per call. On SQLite, in statements of
 * ROWS_PER_STATEMENT whose text is built once per row count and reused: building 3,000 bound
 * values through the query builder for every statement cost more than the insert. PostgreSQL
 * takes each column as one array instead, six parameters for any number of rows, which spares
 * it parsing thousands of placeholders per statement.
 */
export function stagingFor(db: Kysely<Tables>, importId: string): Stage {
  if (!isSqlite(db)) {
    return async (rows) => {
      if (rows.length === 0) return
      const column = (name: keyof ProgrammeRow) => rows.map((row) => row[name])
      await sql`insert into guide_staging (import_id, channel_id, start_at, stop_at, title, subtitle)
        select ${importId}, * from unnest(${column("channel_id")}::text[], ${column("start_at")}::text[], ${column("stop_at")}::text[],
          ${column("title")}::text[], ${column("subtitle")}::text[])`.execute(db)
    }
  }
  const texts = new Map<number, string>()
  const textFor = (count: number): string => {
    let text = texts.get(count)
    if (text === undefined) {
      const blank = { import_id: "", channel_id: "", start_at: "", stop_at: "", title: "", subtitle: "" }
      text = db
        .insertInto("guide_staging")
        .values(Array.from({ length: count }, () => blank))
        .compile().sql
      texts.set(count, text)
    }
    return text
  }
  return async (rows) => {
    if (rows.length === 0) return
    await db.transaction().execute(async (trx) => {
      for (const part of chunks(rows, ROWS_PER_STATEMENT)) {
        // in the order of the blank row's keys above
        const values = part.flatMap((row) => [importId, row.channel_id, row.start_at, row.stop_at, row.title, row.subtitle])
        await trx.executeQuery(CompiledQuery.raw(textFor(part.length), values))
      }
    })
  }
}

/** Forgets an import's staged programmes (it failed, or was swapped in). */
export async function discardStaged(db: Kysely<Tables>, importId: string): Promise<void> {
  await db.deleteFrom("guide_staging").where("import_id", "=", importId).execute()
}

/** Import ids begin with their start time, so those of imports that died long ago sort before `before`. */
export async function discardStagedBefore(db: Kysely<Tables>, before: Timestamp): Promise<void> {
  await db.deleteFrom("guide_staging").where("import_id", "<", before).execute()
}

/**
 * Puts a fully read import in place, in one transaction: its channels, then, per channel, its
 * programmes instead of whatever the guide had in that channel's window. Outside the windows
 * (other channels, other days) nothing changes.
 */
export async function swapInImport(
  db: Kysely<Tables>,
  importId: string,
  channels: ReadonlyArray<ImportedChannel>,
  windows: ReadonlyMap<string, GuideWindow>,
  at: Timestamp,
  alongside?: (trx: Kysely<Tables>) => Promise<void>
): Promise<void> {
  const named = channels.filter((c) => c.name !== undefined && c.name !== "")
  const unnamed = channels.filter((c) => c.name === undefined || c.name === "")
  await db.transaction().execute(async (trx) => {
    for (const part of chunks(named, ROWS_PER_STATEMENT)) {
      await trx
        .insertInto("guide_channels")
        .values(part.map((c) => ({ id: c.id, name: c.name ?? c.id, source: "xmltv" as const, updated_at: at })))
        .onConflict((oc) => oc.column("id").doUpdateSet((eb) => ({ name: eb.ref("excluded.name"), source: "xmltv", updated_at: at })))
        .execute()
    }
    // a channel only programmes mention keeps the name an earlier file gave it
    for (const part of chunks(unnamed, ROWS_PER_STATEMENT)) {
      await trx
        .insertInto("guide_channels")
        .values(part.map((c) => ({ id: c.id, name: c.id, source: "xmltv" as const, updated_at: at })))
        .onConflict((oc) => oc.column("id").doUpdateSet({ source: "xmltv", updated_at: at }))
        .execute()
    }
    for (const [channel, window] of windows) {
      await trx
        .deleteFrom("guide_programmes")
        .where("channel_id", "=", channel)
        // whatever overlaps the window, found by a range of the key since none lasts over a day
        .where("start_at", ">", iso(Date.parse(window.from) - MAX_PROGRAMME_MS))
        .where("start_at", "<", window.to)
        .where("stop_at", ">", window.from)
        .execute()
    }
    await trx
      .insertInto("guide_programmes")
      .columns(["channel_id", "start_at", "stop_at", "title", "subtitle"])
      .expression((eb) =>
        eb.selectFrom("guide_staging").select(["channel_id", "start_at", "stop_at", "title", "subtitle"]).where("import_id", "=", importId)
      )
      // a file listing one programme twice keeps one of them
      .onConflict((oc) => oc.doNothing())
      .execute()
    await discardStaged(trx, importId)
    await alongside?.(trx)
  })
}

/** Removes programmes that started a day before `before`, so surely ended by then; the guide shows nothing older than today. */
export async function pruneProgrammes(db: Kysely<Tables>, before: Timestamp): Promise<number> {
  const result = await db
    .deleteFrom("guide_programmes")
    .where("start_at", "<", iso(Date.parse(before) - MAX_PROGRAMME_MS))
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
