import { describe, expect, it } from "vitest"
import { memoryCounters } from "../../../src/server/http/counters.ts"
import { TELEMETRY_BUDGETS, type TelemetryKind, telemetryQuota } from "../../../src/server/telemetry/telemetryQuotas.ts"

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE

const budget = (kind: TelemetryKind, per: "session" | "account", windowMs: number): number => {
  const found = TELEMETRY_BUDGETS[kind].find((b) => b.per === per && b.windowMs === windowMs)
  if (found === undefined) throw new Error(`no ${per} budget of ${windowMs} ms for ${kind}`)
  return found.max
}

describe("telemetry budgets", () => {
  it("bound what one account keeps in a day, however many sessions it opens and however it spreads them", () => {
    for (const kind of ["analytics", "health", "metering"] as const) {
      let clock = 0
      const quota = telemetryQuota({ counters: memoryCounters(() => clock) })
      const perDay = budget(kind, "account", DAY)
      const perMinute = budget(kind, "account", MINUTE)
      let kept = 0
      let session = 0
      // a new session every minute, each sending its account's whole minute
      while (clock < DAY) {
        session += 1
        for (let n = 0; n < perMinute; n++) if (quota(kind, { sessionId: session, userId: 1 }, 1) === undefined) kept += 1
        clock += MINUTE
      }
      expect(kept, kind).toBe(perDay)
      // the next day opens again; another account was never affected
      expect(quota(kind, { sessionId: session + 1, userId: 1 }, 1)).toBeUndefined()
      expect(quota(kind, { sessionId: session + 2, userId: 2 }, 1)).toBeUndefined()
    }
  })

  it("refuse a session beyond its minute without spending its account's budgets", () => {
    let clock = 0
    const quota = telemetryQuota({ counters: memoryCounters(() => clock) })
    const perSession = budget("analytics", "session", MINUTE)
    const perAccount = budget("analytics", "account", MINUTE)
    for (let n = 0; n < perSession; n++) expect(quota("analytics", { sessionId: 1, userId: 1 }, 1)).toBeUndefined()
    for (let n = 0; n < 500; n++) expect(quota("analytics", { sessionId: 1, userId: 1 }, 1)).toEqual({ per: "session", waitMs: MINUTE })
    for (let n = perSession; n < perAccount; n++) expect(quota("analytics", { sessionId: 2, userId: 1 }, 1)).toBeUndefined()
    clock += 15_000
    expect(quota("analytics", { sessionId: 3, userId: 1 }, 1)).toEqual({ per: "account", waitMs: 45_000 })
    // an empty request counts as one
    expect(quota("health", { sessionId: 4, userId: 4 }, 0)).toBeUndefined()
  })
})
