import type { Kysely } from "kysely"
import { THIS_PROCESS, takeLease } from "../db/jobLease.ts"
import type { Tables } from "../db/schema.ts"
import type { Job } from "./serverFeature.ts"

export interface PeriodicJob<T> extends Job {
  /** Runs a pass now (or joins the one running) and answers its result; undefined when it failed or another instance holds the job. */
  runNow(): Promise<T | undefined>
}

export interface PeriodicJobOptions<T> {
  readonly everyMs: number
  /** Delay of the first pass after start, so start-up and the first requests go first. */
  readonly firstAfterMs: number
  readonly onDone?: (result: T) => void
  readonly onError?: (error: unknown) => void
  /**
   * With several instances on one database: the job's lease in `job_leases`, so a pass runs on
   * the instance holding it and the others skip theirs. The holder keeps it from pass to pass;
   * should it stop, another takes over once a period has gone by.
   */
  readonly lease?: { readonly db: Kysely<Tables>; readonly name: string; readonly now: () => number; readonly holder?: string }
}

/** This process, as a holder of job leases. */
const INSTANCE = THIS_PROCESS

/**
 * Background work on a timer: it never keeps the process alive, never runs twice at once, and a
 * failed pass waits for the next one. `stop` waits for a pass in progress.
 */
export function startPeriodicJob<T>(run: () => Promise<T>, options: PeriodicJobOptions<T>): PeriodicJob<T> {
  let stopped = false
  let running: Promise<T | undefined> | undefined
  let timer: NodeJS.Timeout | undefined

  const schedule = (delayMs: number) => {
    if (stopped) return
    timer = setTimeout(() => void runNow().finally(() => schedule(options.everyMs)), delayMs)
    timer.unref()
  }

  const leased = async (): Promise<T | undefined> => {
    const { lease } = options
    if (lease !== undefined) {
      const now = lease.now()
      // a little over a period, so the holder's next pass finds it still its own
      const mine = await takeLease(lease.db, {
        name: lease.name,
        holder: lease.holder ?? INSTANCE,
        now,
        until: now + options.everyMs * 1.5
      })
      if (!mine) return undefined
    }
    return run()
  }

  const runNow = (): Promise<T | undefined> => {
    running ??= leased()
      .then(
        (result) => {
          if (result !== undefined) options.onDone?.(result)
          return result
        },
        (error: unknown) => {
          options.onError?.(error)
          return undefined
        }
      )
      .finally(() => {
        running = undefined
      })
    return running
  }

  schedule(options.firstAfterMs)

  return {
    runNow,
    async stop() {
      stopped = true
      if (timer !== undefined) clearTimeout(timer)
      await running
    }
  }
}
