import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialects } from "../../support/dbHarness.ts"
import { NOT_COMPARED, tableSnapshot } from "../../support/tableSnapshot.ts"
import { PASSWORD, startTestServer, type TestServer } from "../../support/testServer.ts"

// Ids are 32-bit integers in the database, and PostgreSQL refuses a larger number outright: an id
// a client sends that no row can have names nothing, on both databases, and is never a 500.

// as JSON text, so that numbers JSON.stringify would write otherwise (or not at all) arrive as sent
const NO_ROW_IDS = ["2147483648", "1e30", "1.7976931348623157e308", "123456789012345678901234567890", "-1", "0", "1.5", "5e-324", "-4e-323"]

const ADDRESS = "10.9.0.1"

describe.each(dialects)("ids no row can have ($name)", (dialect) => {
  let server: TestServer
  let customer: string
  let staff: string
  beforeAll(async () => {
    server = await startTestServer(dialect)
    await server.addUser({ email: "viewer@example.com" })
    await server.addUser({ email: "desk@example.com", staff: true })
    // one address throughout: a session seen from a new one records it
    customer = await server.signIn("viewer@example.com", PASSWORD, ADDRESS)
    staff = await server.signIn("desk@example.com", PASSWORD, ADDRESS)
  })
  afterAll(() => server?.dispose())

  const send = (path: string, token: string, body: string) =>
    server.app.inject({
      method: "POST",
      url: path,
      remoteAddress: ADDRESS,
      headers: { token, "content-type": "application/json" },
      payload: body
    })

  it.each([
    ["endConnection", "/api/adminreports/users/end", () => staff],
    ["endStream", "/api/streams/end", () => customer]
  ] as const)("%s ends nothing", async (_name, path, token) => {
    const before = await tableSnapshot(server.db, NOT_COMPARED)
    for (const id of NO_ROW_IDS) {
      const response = await send(path, token(), `{"id":${id}}`)
      expect(response.statusCode, `${id}: ${response.body}`).toBe(200)
      expect(response.json(), id).toEqual({ success: false, detail: "That connection is not live: it has ended already" })
    }
    expect(await tableSnapshot(server.db, NOT_COMPARED)).toEqual(before)
  })

  it("a ticket's status or reply finds no ticket", async () => {
    const before = await tableSnapshot(server.db, NOT_COMPARED)
    for (const id of NO_ROW_IDS.filter((text) => Number.isInteger(Number(text)))) {
      const update = await send("/api/support/updateSupportTicket", staff, `{"ticketId":${id},"newStatus":2}`)
      expect(update.json(), id).toEqual({ success: false, resultCode: 24, detail: "Ticket not found" })
      const reply = await send("/api/emailservice/emailUserNotification", staff, `{"userId":${id},"ticketId":${id},"message":"Hello"}`)
      expect(reply.json(), id).toMatchObject({ success: false, detail: "No such ticket from that user" })
    }
    expect(await tableSnapshot(server.db, NOT_COMPARED)).toEqual(before)
  })
})
