import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, setup } from "xstate"
import { createSyncedClock } from "../../../src/adapters/telemetry/syncedClock.ts"
import { createTimeSyncActor, syncTime } from "../../../src/adapters/telemetry/timeSync.ts"
import type { TimeSyncFact } from "../../../src/domain/TelemetryProtocol.ts"
import { FakeServer, fakeClock } from "../../support/telemetryFakes.ts"

describe("time sync", () => {
  beforeEach(() => void vi.useFakeTimers({ now: 1_000_000 }))
  afterEach(() => void vi.useRealTimers())

  it("GETs /time.json and sets offset = millisUtc − (t0 + t1) / 2", async () => {
    const server = new FakeServer()
    const clock = fakeClock()
    const result = syncTime({ callApi: server.callApi, clock })
    await vi.advanceTimersByTimeAsync(400)
    expect(server.requests[0]?.url).toBe("/time.json")
    expect(server.requests[0]?.init.method).toBe("GET")
    server.answer(server.requests[0], 200, { millisUtc: 5_000_000 })
    await expect(result).resolves.toEqual({ type: "time.synced", offsetMs: 5_000_000 - (1_000_000 + 1_000_400) / 2 })
    expect(clock.offsetMs()).toBe(3_999_800)
    expect(clock.adjustedNow()).toBe(Date.now() + 3_999_800)
    expect(clock.now()).toBe(Date.now())
  })

  it("keeps the old offset when the server does not answer", async () => {
    const server = new FakeServer()
    const clock = fakeClock()
    clock.setOffset(42)
    const result = syncTime({ callApi: server.callApi, clock })
    await vi.advanceTimersByTimeAsync(0)
    server.answer(server.requests[0], 500, { success: false, status: 500, detail: "Internal server error" })
    await expect(result).resolves.toEqual({ type: "time.syncFailed", detail: "Internal server error" })
    expect(clock.offsetMs()).toBe(42)
    clock.setOffset(Number.NaN)
    expect(clock.offsetMs()).toBe(42)
  })

  it("as an actor, syncs once on start and reports time.synced", async () => {
    const server = new FakeServer()
    const clock = createSyncedClock(() => Date.now())
    const facts: Array<TimeSyncFact> = []
    const parent = createActor(
      setup({
        types: { events: {} as TimeSyncFact },
        actors: { timeSync: createTimeSyncActor({ callApi: server.callApi, clock }) }
      }).createMachine({
        invoke: { src: "timeSync" },
        on: { "*": { actions: ({ event }) => facts.push(event) } }
      })
    ).start()
    await vi.advanceTimersByTimeAsync(0)
    server.answer(server.requests[0], 200, { millisUtc: Date.now() + 1000 })
    await vi.advanceTimersByTimeAsync(0)
    expect(facts).toEqual([{ type: "time.synced", offsetMs: 1000 }])
    parent.stop()
  })
})
