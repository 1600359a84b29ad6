import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, sendTo, setup } from "xstate"
import { createMeteringActor, meter, playerGrantOf } from "../../../src/adapters/telemetry/metering.ts"
import { answered, refused, SESSION_ENDED } from "../../../src/domain/contract/answer.ts"
import type { MeteringFact } from "../../../src/domain/TelemetryProtocol.ts"
import { FakeServer } from "../../support/telemetryFakes.ts"
import { WAIT } from "../../support/timeouts.ts"

const grant = { token: "pt-abc", analytics: true, noMetering: false }

describe("metering", () => {
  let server: FakeServer
  beforeEach(() => {
    server = new FakeServer()
  })

  it("posts token_id, factor 1 and a random rnd to /api/metering", async () => {
    const result = meter({ callApi: server.callApi, random: () => "r4nd0m" }, grant)
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT)
    expect(server.requests[0]?.url).toBe("/api/metering")
    expect(server.requests[0]?.body).toEqual({ token_id: "pt-abc", factor: 1, rnd: "r4nd0m" })
    server.answer(server.requests[0])
    await expect(result).resolves.toEqual({ type: "metering.recorded" })
  })

  it("sends a different rnd each time by default", async () => {
    void meter({ callApi: server.callApi }, grant)
    void meter({ callApi: server.callApi }, grant)
    await vi.waitFor(() => expect(server.requests).toHaveLength(2), WAIT)
    const [a, b] = server.requests.map((r) => (r.body as { rnd: string }).rnd)
    expect(a).toMatch(/\S{8,}/)
    expect(a).not.toBe(b)
  })

  it("is skipped without a call when the token grants no metering", async () => {
    await expect(meter({ callApi: server.callApi }, { ...grant, noMetering: true })).resolves.toEqual({ type: "metering.skipped" })
    expect(server.requests).toHaveLength(0)
  })

  it("turns a 401 into the fatal 'token' error", async () => {
    const result = meter({ callApi: server.callApi }, grant)
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT)
    server.answer(server.requests[0], 401, { success: false, status: 401, detail: "The token online validation failed" })
    await expect(result).resolves.toEqual({
      type: "telemetry.tokenRejected",
      error: "token",
      message: "The token online validation failed"
    })
    expect(server.onForbidden).not.toHaveBeenCalled()
  })

  it("reports other failures as non-fatal", async () => {
    const result = meter({ callApi: server.callApi }, grant)
    await vi.waitFor(() => expect(server.requests).toHaveLength(1), WAIT)
    server.answer(server.requests[0], 500, { success: false, status: 500, detail: "Internal server error" })
    await expect(result).resolves.toEqual({ type: "metering.failed", detail: "Internal server error" })
  })

  it("reads the grant from a player-token answer", () => {
    expect(playerGrantOf(answered({ success: true, token: "t", analytics: true, noMetering: true }))).toEqual({
      token: "t",
      analytics: true,
      noMetering: true
    })
    expect(playerGrantOf(refused(500, "x"))).toBeUndefined()
    expect(playerGrantOf(SESSION_ENDED)).toBeUndefined()
  })
})

describe("createMeteringActor", () => {
  beforeEach(() => void vi.useFakeTimers())
  afterEach(() => void vi.useRealTimers())

  const run = (server: FakeServer, noMetering = false) => {
    const facts: Array<MeteringFact> = []
    const parent = createActor(
      setup({
        types: { events: {} as MeteringFact | { type: "record" } },
        actors: { metering: createMeteringActor({ callApi: server.callApi }) }
      }).createMachine({
        invoke: { id: "metering", src: "metering", input: { ...grant, noMetering } },
        on: {
          record: { actions: sendTo("metering", { type: "metering.record" } as const) },
          "*": { actions: ({ event }) => facts.push(event as MeteringFact) }
        }
      })
    ).start()
    return { parent, facts }
  }

  it("meters when started and sends the 401 back as telemetry.tokenRejected", async () => {
    const server = new FakeServer()
    const { facts, parent } = run(server)
    await vi.advanceTimersByTimeAsync(0)
    server.answer(server.requests[0], 401, { success: false, status: 401, detail: "The token online validation failed" })
    await vi.advanceTimersByTimeAsync(0)
    expect(facts).toEqual([{ type: "telemetry.tokenRejected", error: "token", message: "The token online validation failed" }])
    parent.send({ type: "record" })
    await vi.advanceTimersByTimeAsync(0)
    expect(server.requests).toHaveLength(2)
    parent.stop()
  })

  it("reports metering.skipped for a no-metering token, and nothing after it stops", async () => {
    const server = new FakeServer()
    const { facts, parent } = run(server, true)
    await vi.advanceTimersByTimeAsync(0)
    expect(facts).toEqual([{ type: "metering.skipped" }])
    parent.stop()
    expect(server.requests).toHaveLength(0)
  })
})
