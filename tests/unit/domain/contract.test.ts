import { describe, expect, it } from "vitest"
import { api } from "../../../src/domain/contract/api.ts"
import { buildPath, type Endpoint } from "../../../src/domain/contract/endpoint.ts"
import { openApiDocument } from "../../../src/domain/contract/openapi.ts"

const spec7 = [
  "GET /api/support/adminsuppottickets",
  "POST /api/support/ticket",
  "POST /api/support/updateSupportTicket",
  "POST /api/emailservice/emailUserNotification",
  "GET /api/payments",
  "GET /api/subscriptions/useractivesubscription",
  "GET /api/subscriptions/subscription-price-and-discount-rates",
  "GET /api/streams/all",
  "POST /api/users/updatepassword",
  "POST /api/users/updateusernameandemail",
  "POST /api/users/user",
  "POST /api/users/logoutall",
  "GET /api/invitations/invitation/{token}",
  "GET /api/invitations/user/all",
  "GET /api/invitations/rewardpoints",
  "POST /api/users/register",
  "POST /api/users/verify-new-email-token",
  "POST /api/users/login",
  "GET /api/users/isuserauthenticated",
  "POST /api/users/logout",
  "POST /api/users/confirmemailchange",
  "POST /api/users/create-password-reset-token",
  "POST /api/users/verify-password-reset-token",
  "POST /api/users/reset-password",
  "GET /api/scheduler/{id}",
  "POST /api/adminreports/all",
  "GET /api/adminreports/users",
  "GET /api/announcement/latest",
  "GET /api/site-settings"
]
const endpoints = Object.values(api) as ReadonlyArray<Endpoint>

describe("the API contract", () => {
  it("covers every call of SPEC §7 and the decided ones", () => {
    const routes = new Set(endpoints.map((e) => `${e.method} ${e.path}`))
    for (const route of spec7) expect(routes).toContain(route)
    for (const route of ["GET /api/maintenance", "POST /api/metering", "POST /api/health-events", "GET /time.json"]) {
      expect(routes).toContain(route)
    }
    expect(routes.size).toBe(endpoints.length)
  })
  it("keeps staff-only data behind the staff role", () => {
    const staffPaths = endpoints
      .filter((e) => e.access === "staff")
      .map((e) => e.path)
      .sort()
    expect(staffPaths).toEqual([
      "/api/adminreports/all",
      "/api/adminreports/daily",
      "/api/adminreports/users",
      "/api/adminreports/users/end",
      "/api/audit",
      "/api/emailservice/emailUserNotification",
      "/api/support/adminsuppottickets",
      "/api/support/updateSupportTicket"
    ])
  })
  it("describes path parameters for every templated path", () => {
    for (const e of endpoints) expect(e.path.includes("{")).toBe(e.params !== undefined)
    expect(buildPath("/api/scheduler/{id}", { id: "2026-11-22" })).toBe("/api/scheduler/2026-11-22")
    expect(buildPath("/api/invitations/invitation/{token}", { token: "a/b c" })).toBe("/api/invitations/invitation/a%2Fb%20c")
  })
  it("generates an OpenAPI document with every path", () => {
    const doc = openApiDocument({ title: "t", version: "1" }) as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(doc.openapi).toBe("3.1.0")
    for (const e of endpoints) expect(doc.paths[e.path]?.[e.method.toLowerCase()]).toBeDefined()
    expect(JSON.stringify(doc)).not.toContain("#/$defs/")
  })
})
