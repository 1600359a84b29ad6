import type { Counters } from "../http/counters.ts"

const MINUTE_MS = 60 * 1000
const DAY_MS = 24 * 60 * MINUTE_MS

/**
 * How many health records one session may send a minute. A player sends a dozen or two: a time
 * update every 5 s and its playing, waiting and pause events; ten times that covers a few tabs
 * of one session on a bad network.
 */
export const HEALTH_RECORDS_PER_MINUTE = 300

/** What the players send that the database keeps a row of. */
export type TelemetryKind = "health" | "analytics" | "metering"

/** At most `max` records of a kind per session or per account within each window of `windowMs`. */
export interface TelemetryBudget {
  readonly per: "session" | "account"
  readonly windowMs: number
  readonly max: number
}

/**
 * Every row a client can make the server keep is budgeted per session and per account, so one
 * account cannot fill the disk however many sessions it opens (see the README's worst-case disk
 * use). A player reports far below these: health about 20 records a minute, analytics a ping a
 * minute live (one per 6 s on demand) and a view, metering one call per view.
 */
export const TELEMETRY_BUDGETS: Readonly<Record<TelemetryKind, ReadonlyArray<TelemetryBudget>>> = {
  health: [
    { per: "session", windowMs: MINUTE_MS, max: HEALTH_RECORDS_PER_MINUTE },
    { per: "account", windowMs: MINUTE_MS, max: 2 * HEALTH_RECORDS_PER_MINUTE },
    { per: "account", windowMs: DAY_MS, max: 50_000 }
  ],
  analytics: [
    { per: "session", windowMs: MINUTE_MS, max: 60 },
    { per: "account", windowMs: MINUTE_MS, max: 120 },
    { per: "account", windowMs: DAY_MS, max: 20_000 }
  ],
  metering: [
    { per: "session", windowMs: MINUTE_MS, max: 30 },
    { per: "account", windowMs: MINUTE_MS, max: 60 },
    { per: "account", windowMs: DAY_MS, max: 5_000 }
  ]
}

/** Whose records they are. */
export interface TelemetrySender {
  readonly sessionId: number
  readonly userId: number
}

/** A refusal: which budget is spent, and how long until it opens again. */
export interface TelemetryRefusal {
  readonly per: TelemetryBudget["per"]
  readonly waitMs: number
}

/**
 * Counts `records` more records of a kind (a request without any counts as one, so empty ones are
 * limited too) and answers undefined when they are within every budget, or the first budget they
 * overdraw. Budgets are counted in order and counting stops at the first refusal, so a session
 * refused for its own minute does not spend its account's day.
 */
export type TelemetryQuota = (kind: TelemetryKind, sender: TelemetrySender, records: number) => TelemetryRefusal | undefined

export interface TelemetryQuotaOptions {
  readonly counters: Counters
  readonly budgets?: Partial<Readonly<Record<TelemetryKind, ReadonlyArray<TelemetryBudget>>>>
}

/**
 * The budgets in fixed windows in the shared counters: counted without a query per request, and
 * across instances within a moment.
 */
export function telemetryQuota({ counters, budgets = {} }: TelemetryQuotaOptions): TelemetryQuota {
  return (kind, sender, records) => {
    for (const budget of budgets[kind] ?? TELEMETRY_BUDGETS[kind]) {
      const who = budget.per === "session" ? `session ${sender.sessionId}` : `account ${sender.userId}`
      const { count, msLeft } = counters.addSoon(`${kind} ${who} ${budget.windowMs}`, budget.windowMs, Math.max(1, records))
      if (count > budget.max) return { per: budget.per, waitMs: msLeft }
    }
    return undefined
  }
}
