import { Writable } from "node:stream"
import Fastify, { type FastifyInstance } from "fastify"
import { afterEach, describe, expect, expectTypeOf, it } from "vitest"
import { registerBodyParsers } from "../../../src/server/http/bodyParsers.ts"
import { registerErrorHandler } from "../../../src/server/http/errorHandler.ts"
import { type Handler, type Handlers, registerContract, routePath } from "../../../src/server/http/registerContract.ts"
import type { Session } from "../../../src/server/http/session.ts"

// Handlers are typed by the contract: a wrong shape does not compile.
// @ts-expect-error maintenanceMode must be a boolean
const wrongType: Handler<"maintenance"> = async () => ({ maintenanceMode: "yes", title: "", firstRowText: "", secondRowText: "" })
// @ts-expect-error the data key is missing
const missingKey: Handler<"streams"> = async () => ({ success: true })
// On user endpoints the session is always there; no undefined check is needed.
const sessionGiven: Handler<"logout"> = async ({ session }) => ({ success: session.userId > 0 })

describe("handler types", () => {
  it("come from the contract: the compiler refuses the wrong ones above", () => {
    expectTypeOf(wrongType).toEqualTypeOf<Handler<"maintenance">>()
    expectTypeOf(missingKey).toEqualTypeOf<Handler<"streams">>()
    expectTypeOf(sessionGiven).parameter(0).toHaveProperty("session").toEqualTypeOf<Session>()
  })
})

const staff: Session = { sessionId: 1, tokenHash: "h", userId: 1, email: "s@example.com", username: "s", isStaff: true }
const customer: Session = { ...staff, isStaff: false }

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function appWith(handlers: Handlers) {
  const lines: string[] = []
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    }
  })
  app = Fastify({ logger: { level: "error", stream } })
  registerErrorHandler(app)
  registerBodyParsers(app)
  registerContract(app, {
    handlers,
    authenticate: async (_request, token) => (token === "staff" ? staff : token === "customer" ? customer : undefined)
  })
  await app.ready()
  return { app, lines }
}

describe("registerContract", () => {
  it("turns contract paths into route paths", () => {
    expect(routePath("/api/scheduler/{id}")).toBe("/api/scheduler/:id")
    expect(routePath("/api/analytics/{videoType}/{siteGroupId}/{event}")).toBe("/api/analytics/:videoType/:siteGroupId/:event")
  })

  it("refuses to send a response that breaks the contract, and logs it", async () => {
    const { app, lines } = await appWith({
      maintenance: (async () => ({ maintenanceMode: "yes" })) as unknown as Handler<"maintenance">
    })
    const response = await app.inject({ method: "GET", url: "/api/maintenance" })
    expect(response.statusCode).toBe(500)
    expect(response.json()).toEqual({ success: false, status: 500, detail: "Internal server error" })
    expect(lines.join("")).toContain("response does not match the API contract")
  })

  it("answers a thrown error with JSON that reveals nothing", async () => {
    const { app, lines } = await appWith({
      maintenance: async () => {
        throw new Error("connect ECONNREFUSED /var/secret/socket")
      }
    })
    const response = await app.inject({ method: "GET", url: "/api/maintenance" })
    expect(response.statusCode).toBe(500)
    expect(response.headers["content-type"]).toMatch(/^application\/json/)
    expect(response.body).toBe(JSON.stringify({ success: false, status: 500, detail: "Internal server error" }))
    expect(lines.join("")).toContain("ECONNREFUSED")
  })

  it("decodes path parameters with the contract schema", async () => {
    const { app } = await appWith({ schedule: async () => ({ success: true, data: { Items: [] } }) })
    const token = { token: "customer" }
    expect((await app.inject({ method: "GET", url: "/api/scheduler/2026-01-15", headers: token })).statusCode).toBe(200)
    const bad = await app.inject({ method: "GET", url: "/api/scheduler/tomorrow", headers: token })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ success: false, status: 400, resultCode: 19 })
    expect((bad.json() as { detail: string }).detail).toMatch(/^id: /)
  })

  it("checks access before reading the body", async () => {
    const { app } = await appWith({ updateTicket: async () => ({ success: true, resultCode: 1 }) })
    const call = (token: string | undefined, payload: object) =>
      app.inject({ method: "POST", url: "/api/support/updateSupportTicket", headers: token === undefined ? {} : { token }, payload })
    expect((await call(undefined, {})).statusCode).toBe(403)
    expect((await call("nonsense", {})).json()).toEqual({
      success: false,
      status: 403,
      detail: "Your session has ended. Please sign in again."
    })
    expect((await call("customer", { ticketId: 1, newStatus: 2 })).json()).toEqual({
      success: false,
      status: 403,
      detail: "Only staff may do this."
    })
    expect((await call("staff", {})).statusCode).toBe(400)
    expect((await call("staff", { ticketId: 1, newStatus: 2 })).statusCode).toBe(200)
  })

  it("asks for a fresh session on every request but telemetry, and reads a beacon's token from its body", async () => {
    const purposes: Array<[string, string]> = []
    app = Fastify({ logger: false })
    registerErrorHandler(app)
    registerBodyParsers(app)
    registerContract(app, {
      handlers: { payments: async () => ({ success: true, data: [] }), healthEvents: async () => ({ success: true }) },
      authenticate: async (_request, token, purpose) => {
        purposes.push([token, purpose])
        return customer
      }
    })
    await app.ready()
    expect((await app.inject({ method: "GET", url: "/api/payments", headers: { token: "header-token" } })).statusCode).toBe(200)
    const beacon = await app.inject({
      method: "POST",
      url: "/api/health-events",
      headers: { "content-type": "text/plain;charset=UTF-8" },
      payload: JSON.stringify({ token: "beacon-token", events: [] })
    })
    expect(beacon.statusCode).toBe(200)
    expect(purposes).toEqual([
      ["header-token", "request"],
      ["beacon-token", "telemetry"]
    ])
  })
})
