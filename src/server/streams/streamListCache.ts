import type { Kysely } from "kysely"
import type { Db } from "../db/database.ts"
import { keptWhileUnchanged } from "../db/keptWhileUnchanged.ts"
import type { StreamRow, Tables } from "../db/schema.ts"
import { listStreams } from "./streamsRepo.ts"

/** The streams in display order, shared by every caller: never changed in place. */
export type StreamList = ReadonlyArray<Readonly<StreamRow>>

/**
 * The list kept while the table's version says nothing has changed (see keptWhileUnchanged.ts):
 * every viewer's grid asks for the same few rows, which change only when an operator changes them.
 * Its rows are frozen, as every caller shares them.
 */
export function streamListCache(read: () => Promise<Array<StreamRow>>, version: () => number | undefined): () => Promise<StreamList> {
  return keptWhileUnchanged(async (): Promise<StreamList> => Object.freeze((await read()).map((row) => Object.freeze(row))), version)
}

const cached = new WeakMap<Kysely<Tables>, () => Promise<StreamList>>()

/**
 * One cache per database, shared by the grid's handler and the page's media origins; it keeps the
 * first `version` it was given, as every caller on one database passes that database's.
 */
export function cachedStreamList(db: Kysely<Tables>, version: Db["tableVersion"]): () => Promise<StreamList> {
  let list = cached.get(db)
  if (list === undefined) {
    list = streamListCache(
      () => listStreams(db),
      () => version("streams")
    )
    cached.set(db, list)
  }
  return list
}
