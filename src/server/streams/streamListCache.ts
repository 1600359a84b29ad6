import type { Kysely } from "kysely"
import type { Db } from "../db/database.ts"
import type { StreamRow, Tables } from "../db/schema.ts"
import { listStreams } from "./streamsRepo.ts"

/** The streams in display order, shared by every caller: never changed in place. */
export type StreamList = ReadonlyArray<Readonly<StreamRow>>

/**
 * The last list read, kept for as long as the table's version says nothing has changed: every
 * viewer's grid asks for the same few rows, which change only when an operator changes them.
 * Callers that arrive while a read is under way for the same version share it. A read is kept
 * under the version asked before it began, and only if the version is unchanged once it is done:
 * a change committed during the read may or may not be in it.
 */
export function streamListCache(read: () => Promise<Array<StreamRow>>, version: () => number | undefined): () => Promise<StreamList> {
  let kept: { version: number; list: Promise<StreamList> } | undefined
  const readFrozen = async (): Promise<StreamList> => Object.freeze((await read()).map((row) => Object.freeze(row)))
  return () => {
    const at = version()
    if (at === undefined) return readFrozen()
    if (kept?.version === at) return kept.list
    const entry = { version: at, list: readFrozen() }
    kept = entry
    const forget = () => {
      if (kept === entry) kept = undefined
    }
    entry.list.then(() => {
      if (version() !== at) forget()
    }, forget)
    return entry.list
  }
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
