import type { Kysely } from "kysely"
import type { Tables } from "./schema.ts"

/** Writes that share a transaction with the others arriving at about the same time. */
export interface WriteBatcher<T> {
  /** Resolves once `item` is committed, and only then; rejects when its write failed. */
  write(item: T): Promise<void>
  /** Commits what is queued and takes no more. */
  close(): Promise<void>
}

export interface WriteBatcherOptions<T> {
  readonly db: Kysely<Tables>
  /** Writes a batch inside the transaction it is given (see `transaction`), ideally as one statement per table. */
  readonly commit: (trx: Kysely<Tables>, items: ReadonlyArray<T>) => Promise<void>
  /** How long the first write of a batch waits for company. */
  readonly windowMs?: number
  readonly maxBatch?: number
  /**
   * False: `commit` is given the database itself and opens a transaction where it needs one, so
   * a batch that is one statement (atomic by itself) is spared PostgreSQL's BEGIN and COMMIT.
   */
  readonly transaction?: boolean
}

interface Pending<T> {
  readonly item: T
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/**
 * Group commit: every commit is an fsync, and on SQLite that fsync holds the event loop, so a
 * stream of small writes (player heartbeats) becomes one transaction every few milliseconds
 * instead of one per write, and on PostgreSQL one round trip per table instead of one per row.
 * Nothing is acknowledged before its transaction commits. One bad write must not take its
 * neighbours down: when a batch fails, each item is retried alone and only the one at fault fails.
 */
export function createWriteBatcher<T>(options: WriteBatcherOptions<T>): WriteBatcher<T> {
  const windowMs = options.windowMs ?? 5
  const maxBatch = options.maxBatch ?? 500
  const inTransaction = (items: ReadonlyArray<T>): Promise<void> =>
    options.transaction === false
      ? options.commit(options.db, items)
      : options.db.transaction().execute((trx) => options.commit(trx, items))
  let queue: Array<Pending<T>> = []
  let timer: NodeJS.Timeout | undefined
  let flushing: Promise<void> | undefined
  let closed = false

  const commit = async (batch: ReadonlyArray<Pending<T>>): Promise<void> => {
    try {
      await inTransaction(batch.map((pending) => pending.item))
      for (const pending of batch) pending.resolve()
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error)
        return
      }
      for (const pending of batch) await inTransaction([pending.item]).then(pending.resolve, pending.reject)
    }
  }

  const flush = (): void => {
    timer = undefined
    if (flushing !== undefined || queue.length === 0) return
    const batch = queue.slice(0, maxBatch)
    queue = queue.slice(batch.length)
    flushing = commit(batch).finally(() => {
      flushing = undefined
      // what queued up meanwhile goes at once: it has already waited a whole commit
      if (queue.length > 0) flush()
    })
  }

  return {
    write(item) {
      if (closed) return Promise.reject(new Error("the write batcher is closed"))
      return new Promise<void>((resolve, reject) => {
        queue.push({ item, resolve, reject })
        if (queue.length >= maxBatch) {
          if (timer !== undefined) clearTimeout(timer)
          flush()
        } else if (timer === undefined && flushing === undefined) {
          timer = setTimeout(flush, windowMs)
        }
      })
    },
    async close() {
      closed = true
      if (timer !== undefined) clearTimeout(timer)
      flush()
      while (flushing !== undefined) await flushing
    }
  }
}
