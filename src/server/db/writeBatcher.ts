import type { Kysely } from "kysely"
import type { Tables } from "./schema.ts"

/** Writes that may share a transaction with others arriving at about the same time. */
export interface WriteBatcher {
  /** Resolves once `work` is committed, and only then; rejects when it failed. */
  write(work: (trx: Kysely<Tables>) => Promise<void>): Promise<void>
  /** Commits what is queued and takes no more. */
  close(): Promise<void>
}

export interface WriteBatcherOptions {
  readonly db: Kysely<Tables>
  /** How long the first write of a batch waits for company. */
  readonly windowMs?: number
  readonly maxBatch?: number
}

interface Pending {
  readonly work: (trx: Kysely<Tables>) => Promise<void>
  readonly resolve: () => void
  readonly reject: (error: unknown) => void
}

/**
 * Group commit: every commit is an fsync, and on SQLite that fsync holds the event loop, so a
 * stream of small writes (player heartbeats) turns into one transaction per few milliseconds
 * instead of one per write. Nothing is acknowledged before its transaction commits. One failing
 * write must not take its neighbours down: when a batch fails, each write is retried alone and
 * only the one at fault is rejected.
 */
export function createWriteBatcher(options: WriteBatcherOptions): WriteBatcher {
  const windowMs = options.windowMs ?? 5
  const maxBatch = options.maxBatch ?? 500
  let queue: Array<Pending> = []
  let timer: NodeJS.Timeout | undefined
  let flushing: Promise<void> | undefined
  let closed = false

  const commit = async (batch: ReadonlyArray<Pending>): Promise<void> => {
    try {
      await options.db.transaction().execute(async (trx) => {
        for (const item of batch) await item.work(trx)
      })
      for (const item of batch) item.resolve()
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error)
        return
      }
      for (const item of batch) {
        await options.db.transaction().execute(item.work).then(item.resolve, item.reject)
      }
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
    write(work) {
      if (closed) return Promise.reject(new Error("the write batcher is closed"))
      return new Promise<void>((resolve, reject) => {
        queue.push({ work, resolve, reject })
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
