/** The device clock and its correction to server time, shared by every telemetry adapter. */
export interface SyncedClock {
  /** The device clock, epoch ms. */
  readonly now: () => number
  /** The device clock corrected by the last time sync, epoch ms. */
  readonly adjustedNow: () => number
  readonly offsetMs: () => number
  readonly setOffset: (offsetMs: number) => void
}

export const createSyncedClock = (now: () => number = () => Date.now()): SyncedClock => {
  let offset = 0
  return {
    now,
    adjustedNow: () => now() + offset,
    offsetMs: () => offset,
    setOffset: (offsetMs) => {
      // A broken answer must not throw every later timestamp off by NaN.
      if (Number.isFinite(offsetMs)) offset = offsetMs
    }
  }
}
