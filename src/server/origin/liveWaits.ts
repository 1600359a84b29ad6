/**
 * Held responses of a simulated live origin. Moments are read from the injected clock rather than
 * counted by the timer alone, so a response never goes out early: when a timer fires and the clock
 * disagrees (a test clock that moves by hand, a wall clock that was stepped), the clock is polled
 * at a short interval from then on instead of trusting another long timer.
 */

export interface LiveWaits {
  /**
   * Resolves `true` once `now() >= at`, or `false` once `now() >= deadline` or the waits are
   * released; `signal` lets a departed client drop its wait early (resolving `false`).
   */
  readonly until: (at: number, deadline: number, signal?: AbortSignal) => Promise<boolean>
  /** Resolves every pending wait with `false` and makes later ones resolve at once. */
  readonly release: () => void
  readonly pending: () => number
}

const POLL_MS = 20

export const createLiveWaits = (now: () => number): LiveWaits => {
  const settlers = new Set<(reached: boolean) => void>()
  let released = false

  const until = (at: number, deadline: number, signal?: AbortSignal): Promise<boolean> =>
    new Promise((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const settle = (reached: boolean) => {
        clearTimeout(timer)
        settlers.delete(settle)
        signal?.removeEventListener("abort", abort)
        resolve(reached)
      }
      const abort = () => settle(false)
      let polling = false
      const check = () => {
        const time = now()
        if (time >= at) return settle(true)
        if (time >= deadline || released) return settle(false)
        const remaining = Math.min(at, deadline) - time
        timer = setTimeout(check, polling ? Math.min(POLL_MS, remaining) : remaining)
        polling = true
      }
      if (signal?.aborted) return resolve(false)
      settlers.add(settle)
      signal?.addEventListener("abort", abort, { once: true })
      check()
    })

  const release = () => {
    released = true
    for (const settle of [...settlers]) settle(false)
  }

  return { until, release, pending: () => settlers.size }
}
