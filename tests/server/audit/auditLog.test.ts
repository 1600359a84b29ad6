import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { audit } from "../../../src/server/audit/auditFeature.ts"
import { pruneAuditLog } from "../../../src/server/audit/auditRetention.ts"
import type { UserRow } from "../../../src/server/db/schema.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

const DAY = 24 * 60 * 60 * 1000
const ping = {
  session_id: "player-session",
  sitegroup_id: "streamhub",
  media_id: "1",
  site_id: "web",
  player_id: "tv",
  video_type: "live",
  created: 0,
  position: 60,
  player_version: "3.4.5",
  source: "hls",
  category: "",
  category_id: "",
  autoplay: true,
  muted: false,
  customer_user_id: ""
}

interface Page {
  readonly success: boolean
  readonly data: ReadonlyArray<{
    id: number
    at: string
    actor: string
    action: string
    target: string
    detail: string
    address: string | null
  }>
  readonly next: number | null
}

describe.each(dialects)("the audit log of staff actions ($name)", (dialect) => {
  let server: TestServer
  let customer: UserRow
  let customerToken: string
  let staffToken: string
  const STAFF_IP = "10.77.0.9"

  const auditRows = () => server.db.kysely.selectFrom("audit_log").selectAll().orderBy("id").execute()
  const list = async (query: Record<string, string> = {}, token = staffToken) => {
    const response = await server.call("auditLog", { token, query, ip: STAFF_IP })
    expect(response.statusCode, response.body).toBe(200)
    return response.json() as Page
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    customer = await server.addUser({ email: "asker@example.com" })
    await server.addUser({ email: "desk@example.com", staff: true })
    customerToken = await server.signIn("asker@example.com")
    staffToken = await server.signIn("desk@example.com")
    await server.call("createTicket", {
      token: customerToken,
      body: { type: 2, subject: "Billing", description: "I paid twice this month" }
    })
  })
  afterAll(() => server.dispose())

  it("keeps a ticket's status change and a staff reply with who, what, which ticket and from where, but not the reply's text", async () => {
    const [ticket] = await server.db.kysely.selectFrom("tickets").select("id").execute()
    const id = ticket?.id ?? 0
    await server.call("updateTicket", { token: staffToken, ip: STAFF_IP, body: { ticketId: id, newStatus: 2 } })
    // the same status again changes nothing, so it is not logged
    await server.call("updateTicket", { token: staffToken, ip: STAFF_IP, body: { ticketId: id, newStatus: 2 } })
    await server.call("replyToTicket", {
      token: staffToken,
      ip: STAFF_IP,
      body: { userId: customer.id, ticketId: id, message: "Refunded: the secret code is 1234" }
    })
    const rows = await auditRows()
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        at: new Date(server.clock).toISOString(),
        actor: "desk@example.com",
        actor_user_id: expect.any(Number),
        action: "ticket.status",
        target: `ticket ${id} (asker@example.com)`,
        detail: "Open → In progress",
        address: STAFF_IP
      },
      expect.objectContaining({
        actor: "desk@example.com",
        action: "ticket.reply",
        target: `ticket ${id} (asker@example.com)`,
        detail: "mailed asker@example.com (33 characters)",
        address: STAFF_IP
      })
    ])
    expect(JSON.stringify(rows)).not.toContain("1234")
  })

  it("keeps staff ending a viewer's connection, and nothing when there was nothing to end", async () => {
    await server.call("analytics", {
      token: customerToken,
      ip: "10.77.1.1",
      params: { videoType: "live", siteGroupId: "streamhub", event: "ping" },
      body: ping
    })
    const connection = await server.db.kysely.selectFrom("player_connections").select("id").executeTakeFirstOrThrow()
    expect((await server.call("endConnection", { token: staffToken, ip: STAFF_IP, body: { id: connection.id } })).json()).toEqual({
      success: true
    })
    const before = (await auditRows()).length
    expect((await server.call("endConnection", { token: staffToken, ip: STAFF_IP, body: { id: connection.id } })).json()).toMatchObject({
      success: false
    })
    const rows = await auditRows()
    expect(rows).toHaveLength(before)
    expect(rows.at(-1)).toMatchObject({
      actor: "desk@example.com",
      action: "session.end",
      target: `connection ${connection.id} of user ${customer.id} (asker@example.com)`,
      address: STAFF_IP
    })
  })

  it("is listed to staff only: anyone else gets 403 and sees nothing", async () => {
    const anonymous = await server.call("auditLog", {})
    expect(anonymous.statusCode).toBe(403)
    const refused = await server.call("auditLog", { token: customerToken })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ success: false, status: 403, detail: "Only staff may do this." })
  })

  it("lists newest first, filtered by actor (any case) and by action, a page at a time", async () => {
    const all = await list()
    expect(all.data.map((entry) => entry.action)).toEqual(["session.end", "ticket.reply", "ticket.status"])
    expect(all.next).toBeNull()
    expect((await list({ action: "ticket.reply" })).data.map((entry) => entry.action)).toEqual(["ticket.reply"])
    expect((await list({ actor: " Desk@Example.com " })).data).toHaveLength(3)
    expect((await list({ actor: "asker@example.com" })).data).toEqual([])

    const first = await list({ limit: "2" })
    expect(first.data.map((entry) => entry.action)).toEqual(["session.end", "ticket.reply"])
    expect(first.next).toBe(first.data[1]?.id)
    const second = await list({ limit: "2", before: String(first.next) })
    expect(second.data.map((entry) => entry.action)).toEqual(["ticket.status"])
    expect(second.next).toBeNull()
    // past every stored id is the start
    expect((await list({ before: "999999999999" })).data).toHaveLength(3)
  })

  it.each([
    [{ action: "ticket.delete" }, "action: Choose one of the listed actions"],
    [{ action: "" }, "action: Choose one of the listed actions"],
    [{ limit: "0" }, "limit: Ask for 1 to 200 entries"],
    [{ limit: "201" }, "limit: Ask for 1 to 200 entries"],
    [{ limit: "ten" }, "limit: Ask for 1 to 200 entries"],
    [{ before: "-3" }, "before: Give the id of the entry to continue after"],
    [{ actor: "" }, "actor: Enter an email, or cli: and the operator's user name"]
  ])("refuses the filter %j with a 400 that says why", async (query, detail) => {
    const response = await server.call("auditLog", { token: staffToken, query })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
  })

  it("keeps entries for the retention and removes older ones", async () => {
    const db = server.db.kysely
    const now = server.clock
    await audit.record(db, audit.operator("old"), { action: "maintenance.on", target: "site" }, now - 401 * DAY)
    await audit.record(db, audit.operator("recent"), { action: "maintenance.off", target: "site" }, now - 399 * DAY)
    expect(await pruneAuditLog(db, now)).toBe(1)
    const actors = (await auditRows()).map((row) => row.actor)
    expect(actors).toContain("cli:recent")
    expect(actors).not.toContain("cli:old")
  })
})

describe("an address in the log", () => {
  it.each([
    ["https://user:pass@guide.example.com/feed.xml?key=abc", "https://…@guide.example.com/feed.xml?…"],
    ["https://guide.example.com/feed.xml", "https://guide.example.com/feed.xml"],
    ["rtsp://cam:secret@10.0.0.5:554/live#x", "rtsp://…@10.0.0.5:554/live?…"],
    ["/srv/guide/tonight.xml", "/srv/guide/tonight.xml"]
  ])("%s is kept as %s", (location, kept) => {
    expect(audit.withoutSecrets(location)).toBe(kept)
  })
})
