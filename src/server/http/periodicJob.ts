import type { Job } from "./serverFeature.ts"

export interface PeriodicJob<T> extends Job {
  /** Runs a pass now (or joins the one running) and answers its result; undefined when it failed. */
  runNow(): Promise<T | undefined>
}

export interface PeriodicJobOptions<T> {
  readonly everyMs: number
  /** Delay of the first pass after start, so start-up and the first requests go first. */
  readonly firstAfterMs: number
  readonly onDone?: (result: T) => void
  readonly onError?: (error: unknown) => void
}

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

  const runNow = (): Promise<T | undefined> => {
    running ??= run()
      .then((result) => {
        options.onDone?.(result)
        return result
      }, (error: unknown) => {
        options.onError?.(error)
        return undefined
      })
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
