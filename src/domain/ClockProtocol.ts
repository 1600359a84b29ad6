// The clock actor's protocol: pages whose content changes with the time of day (what airs now,
// what is LIVE) learn the time from it, so tests drive them with fake timers.

export interface ClockInput {
  /** how often to tick while running */
  readonly everyMs: number
}

/** Ask for one extra tick at `at` (epoch ms), e.g. when a programme ends; it replaces the last one asked for, and Infinity asks for none. */
export type ClockCommand = { readonly type: "clock.wake"; readonly at: number }

export type ClockFact = { readonly type: "clock.ticked"; readonly now: number }
