import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api, type EndpointName } from "../../../src/domain/contract/api.ts"
import { buildPath } from "../../../src/domain/contract/endpoint.ts"
import { hashToken } from "../../../src/server/account/sessions.ts"
import { playerTokenOf } from "../../../src/server/connections/playerTokens.ts"
import { routePath } from "../../../src/server/http/registerContract.ts"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { dialects } from "../../support/dbHarness.ts"
import { type CallOptions, startTestServer, type TestServer } from "../../support/testServer.ts"

const analyticsBody = {
  session_id: "s",
  sitegroup_id: "streamhub",
  media_id: "1",
  site_id: "web",
  player_id: "tv",
  video_type: "live",
  created: 0,
  position: 0,
  player_version: "3.4.5",
  source: "hls",
  category: "",
  category_id: "",
  autoplay: true,
  muted: true,
  customer_user_id: ""
}

// A valid request for every endpoint the server implements, so that only access decides the answer;
// a function gets the caller's session token (metering must name the session's own player token).
const VALID: Partial<Record<EndpointName, CallOptions | ((token: string | undefined) => CallOptions)>> = {
  maintenance: {},
  siteSettings: {},
  announcement: {},
  streams: {},
  login: { body: { email: "nobody@example.com", password: "wrong password" } },
  logout: {},
  logoutAll: {},
  isAuthenticated: {},
  userInfo: { body: { isMobile: false } },
  register: {
    body: { username: "newbie", email: "newbie@example.com", password: "long enough", invitationToken: "unknown-invite-code-123" }
  },
  verifyEmail: { body: { token: "unknown" } },
  resendVerification: { body: { email: "nobody@example.com" } },
  updatePassword: { body: { currentPassword: "wrong password", newPassword: "another password" } },
  updateUsernameAndEmail: { body: { username: "someone", email: "someone@example.com", password: "wrong password" } },
  confirmEmailChange: { body: { email_token: "unknown" } },
  signInWithLink: { body: { token: "unknown" } },
  createPasswordReset: { body: { email: "nobody@example.com" } },
  verifyPasswordReset: { body: { token: "unknown" } },
  resetPassword: { body: { token: "unknown", newPassword: "another password" } },
  invitation: { params: { token: "unknown" } },
  invitations: {},
  schedule: { params: { id: "2026-01-15" }, query: { tz: "Europe/Oslo" } },
  nowNext: {},
  guideWindow: { params: { streamId: "1" } },
  rewardPoints: {},
  payments: {},
  activeSubscription: {},
  subscriptionPlans: {},
  createTicket: { body: { type: 5, subject: "Hello", description: "Just saying hi" } },
  myTickets: {},
  tickets: {},
  updateTicket: { body: { ticketId: 123456, newStatus: 2 } },
  replyToTicket: { body: { userId: 1, ticketId: 123456, message: "Thanks" } },
  healthEvents: { body: { events: [] } },
  timeSync: {},
  connections: {},
  endConnection: { body: { id: 123456 } },
  auditLog: { query: { action: "ticket.status", limit: "10" } },
  streamAccess: { body: { grant: "g1.not.a.grant" } },
  endStream: { body: { id: 123456 } },
  closeStream: { body: { grant: "g1.not.a.grant" } },
  reports: { body: { dates: { start: "2026-01-01", end: "2026-01-15" } } },
  reportSeries: { body: { dates: { start: "2026-01-01", end: "2026-01-15" } } },
  playerToken: {},
  reminders: {},
  createReminder: { body: { streamId: 1, startTime: "2026-01-16T20:00:00.000Z", leadMinutes: 10 } },
  deleteReminder: { params: { id: "123456" } },
  calendarFeed: {},
  createCalendarFeed: {},
  revokeCalendarFeed: {},
  metering: (token) => ({ body: { token_id: token === undefined ? "none" : playerTokenOf(hashToken(token)), factor: 1, rnd: "r" } }),
  analytics: { params: { videoType: "live", siteGroupId: "streamhub", event: "view" }, body: analyticsBody }
}
const IMPLEMENTED = Object.keys(VALID) as EndpointName[]
const ROLES = ["anonymous", "customer", "staff"] as const

const allowed = (name: EndpointName, role: (typeof ROLES)[number]): boolean =>
  api[name].access === "anyone" || (api[name].access === "user" ? role !== "anonymous" : role === "staff")

describe.each(dialects)("access by role ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
    await server.addUser({ email: "customer@example.com" })
    await server.addUser({ email: "staff@example.com", staff: true })
    // a programme to set a reminder of
    const stream = await insertStream(server.db.kysely, { title: "Sports One", src: "/live/x/index.m3u8", epg_channel_id: "sport1.tv" })
    expect(stream.id).toBe(1)
    await server.db.kysely
      .insertInto("guide_programmes")
      .values({
        channel_id: "sport1.tv",
        start_at: "2026-01-16T20:00:00.000Z",
        stop_at: "2026-01-16T22:00:00.000Z",
        title: "Match",
        subtitle: ""
      })
      .execute()
  })
  afterAll(() => server.dispose())

  it("registers exactly the implemented endpoints", () => {
    for (const [name, endpoint] of Object.entries(api) as Array<[EndpointName, (typeof api)[EndpointName]]>) {
      expect(server.app.hasRoute({ method: endpoint.method, url: routePath(endpoint.path) }), name).toBe(IMPLEMENTED.includes(name))
    }
  })

  describe.each(IMPLEMENTED)("%s", (name) => {
    it.each(ROLES)("as %s", async (role) => {
      // A fresh session per call: logout and logoutAll end the one they are given.
      const token = role === "anonymous" ? undefined : await server.signIn(`${role}@example.com`)
      const valid = VALID[name]
      const options = typeof valid === "function" ? valid(token) : valid
      const response = await server.call(name, { ...options, ...(token === undefined ? {} : { token }) })
      expect(response.statusCode).toBe(allowed(name, role) ? 200 : 403)
      if (response.statusCode === 403) expect(response.json()).toMatchObject({ success: false, status: 403 })
    })
  })

  it("answers 404 JSON for contract endpoints not implemented yet", async () => {
    const staffToken = await server.signIn("staff@example.com")
    for (const name of Object.keys(api) as EndpointName[]) {
      if (IMPLEMENTED.includes(name)) continue
      const endpoint = api[name]
      const response = await server.app.inject({
        method: endpoint.method,
        url: buildPath(endpoint.path, { token: "t", id: "2026-01-01", videoType: "live", siteGroupId: "1", event: "ping" }),
        headers: { token: staffToken, accept: "text/html" },
        ...(endpoint.method === "POST" ? { payload: {} } : {})
      })
      expect(response.statusCode, name).toBe(404)
      expect(response.json()).toEqual({ success: false, status: 404, detail: "Not found" })
    }
  })
})
