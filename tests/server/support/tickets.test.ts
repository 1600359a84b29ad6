import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { UserRow } from "../../../src/server/db/schema.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer, tableCounts } from "../../support/testServer.ts"

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe.each(dialects)("support tickets ($name)", (dialect) => {
  let server: TestServer
  let customer: UserRow
  let customerToken: string
  let staffToken: string

  beforeAll(async () => {
    server = await startTestServer(dialect)
    customer = await server.addUser({ email: "asker@example.com" })
    await server.addUser({ email: "desk@example.com", staff: true })
    customerToken = await server.signIn("asker@example.com")
    staffToken = await server.signIn("desk@example.com")
  })
  afterAll(() => server.dispose())

  const ticketRows = () => server.db.kysely.selectFrom("tickets").selectAll().orderBy("id").execute()

  it("a customer submits a ticket", async () => {
    const response = await server.call("createTicket", {
      token: customerToken,
      body: { type: 3, subject: "stream request", description: "Please add the derby" }
    })
    expect(response.json()).toEqual({ success: true, resultCode: 1, detail: "Ticket submitted" })
    const rows = await ticketRows()
    expect(rows).toHaveLength(1)
    expect(rows[0]).toMatchObject({
      user_id: customer.id,
      type: 3,
      subject: "stream request",
      description: "Please add the derby",
      status: 1,
      resolved_at: null
    })
    expect(rows[0]?.created_at).toBe(new Date(server.clock).toISOString())
  })

  it("refuses anonymous tickets with 403 and keeps nothing", async () => {
    const before = await tableCounts(server.db)
    const response = await server.call("createTicket", { body: { type: 1, subject: "x", description: "long enough" } })
    expect(response.statusCode).toBe(403)
    expect(await tableCounts(server.db)).toEqual(before)
  })

  it.each([
    [{ type: 9, subject: "Hi", description: "Long enough" }, "type: Please select a vategory"],
    [{ type: 1, subject: "", description: "Long enough" }, "subject: Please enter a subject"],
    [{ type: 1, subject: "Hi", description: "short" }, "description: Please enter a description"],
    // only a stream request (category 3) may be as short as a channel's name
    [{ type: 5, subject: "stream request", description: "TV2" }, "description: Please enter a description"],
    [{ type: 3, subject: "stream request", description: " \n " }, "description: Please enter a description"],
    [{ type: "1", subject: "Hi", description: "Long enough" }, "type: Expected number"],
    [{ subject: "Hi", description: "Long enough" }, "type: Missing key"]
  ])("refuses %j with 400 and keeps nothing", async (body, detail) => {
    const before = await tableCounts(server.db)
    const response = await server.call("createTicket", { token: customerToken, body })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
    expect(await tableCounts(server.db)).toEqual(before)
  })

  it("only staff list tickets, with their authors and ISO dates", async () => {
    expect((await server.call("tickets")).statusCode).toBe(403)
    const refused = await server.call("tickets", { token: customerToken })
    expect(refused.statusCode).toBe(403)
    expect(refused.json()).toEqual({ success: false, status: 403, detail: "Only staff may do this." })
    const response = await server.call("tickets", { token: staffToken })
    const { data } = response.json() as { data: Array<Record<string, unknown>> }
    expect(data).toHaveLength(1)
    expect(data[0]).toMatchObject({
      user__id: customer.id,
      user__email: "asker@example.com",
      type: 3,
      subject: "stream request",
      status: 1,
      resolved_at: null
    })
    expect(data[0]?.created_at).toMatch(ISO)
  })

  const mails = () => server.db.kysely.selectFrom("outbox").select(["to_address", "kind", "subject", "text_body"]).orderBy("id").execute()

  it("staff move a ticket through its statuses, and the customer hears of each change", async () => {
    const [ticket] = await ticketRows()
    const update = (newStatus: number) => server.call("updateTicket", { token: staffToken, body: { ticketId: ticket?.id, newStatus } })
    expect((await update(1)).json()).toEqual({ success: true, resultCode: 1, detail: "The ticket already has that status" })
    expect(await mails()).toEqual([])
    expect((await update(2)).json()).toEqual({ success: true, resultCode: 1, detail: "Ticket updated" })
    expect((await ticketRows())[0]).toMatchObject({ status: 2, resolved_at: null, first_response_at: new Date(server.clock).toISOString() })
    expect(await mails()).toEqual([
      expect.objectContaining({
        to_address: "asker@example.com",
        kind: "ticket-status",
        subject: "In progress: stream request [StreamHub support]"
      })
    ])
    server.clock += 60_000
    await update(3)
    const resolved = (await ticketRows())[0]
    expect(resolved).toMatchObject({ status: 3, resolved_at: new Date(server.clock).toISOString() })
    const listed = (await server.call("tickets", { token: staffToken })).json() as { data: Array<{ resolved_at: string }> }
    expect(listed.data[0]?.resolved_at).toMatch(ISO)
    await update(1)
    expect((await ticketRows())[0]).toMatchObject({ status: 1, resolved_at: null })
    expect((await mails()).map((m) => m.kind)).toEqual(["ticket-status", "ticket-status", "ticket-status"])
    // the first answer is kept
    expect((await ticketRows())[0]?.first_response_at).toBe(new Date(server.clock - 60_000).toISOString())
  })

  it("mails a staff reply to the ticket's author, exactly as written", async () => {
    const [ticket] = await ticketRows()
    const before = (await mails()).length
    const message = "Thanks!\n<b>We added the derby</b> & more."
    const response = await server.call("replyToTicket", { token: staffToken, body: { userId: customer.id, ticketId: ticket?.id, message } })
    expect(response.json()).toEqual({ success: true, resultCode: 1, detail: "Email added to queue" })
    const sent = (await mails()).slice(before)
    expect(sent).toEqual([
      expect.objectContaining({ to_address: "asker@example.com", kind: "ticket-reply", subject: "Re: stream request [StreamHub support]" })
    ])
    expect(sent[0]?.text_body).toContain("<b>We added the derby</b> & more.")
    // no support address yet: replies would reach no one, so the mail points at Contact Us
    expect(sent[0]?.text_body).toContain(
      "Please do not reply to this email, as replies are not read: to tell us more, open a new ticket from Contact Us at http://localhost:8080/contactus."
    )
  })

  it("tells the customer to reply when there is a support address, in replies and status mails alike", async () => {
    const [ticket] = await ticketRows()
    await setSetting(server.db.kysely, "supportEmail", "help@streamhub.example")
    try {
      const before = (await mails()).length
      const body = { userId: customer.id, ticketId: ticket?.id, message: "Fixed now." }
      expect((await server.call("replyToTicket", { token: staffToken, body })).json()).toMatchObject({ resultCode: 1 })
      const status = ticket?.status === 3 ? 1 : 3
      await server.call("updateTicket", { token: staffToken, body: { ticketId: ticket?.id, newStatus: status } })
      const sent = (await mails()).slice(before)
      expect(sent.map((m) => m.kind)).toEqual(["ticket-reply", "ticket-status"])
      for (const mail of sent) {
        expect(mail.text_body).toContain("To answer, reply to this email: it goes to our support team at help@streamhub.example.")
        expect(mail.text_body).not.toContain("do not reply")
      }
    } finally {
      await setSetting(server.db.kysely, "supportEmail", "")
    }
  })

  it("sends no reply to anyone but the ticket's author, nor for a ticket that is not there", async () => {
    const [ticket] = await ticketRows()
    const before = (await mails()).length
    for (const body of [
      { userId: customer.id + 1000, ticketId: ticket?.id, message: "Hello" },
      { userId: customer.id, ticketId: 999_999, message: "Hello" },
      { userId: customer.id, ticketId: 2 ** 40, message: "Hello" }
    ]) {
      expect((await server.call("replyToTicket", { token: staffToken, body })).json()).toEqual({
        success: false,
        resultCode: 2,
        detail: "No such ticket from that user"
      })
    }
    expect(
      (await server.call("replyToTicket", { token: customerToken, body: { userId: customer.id, ticketId: ticket?.id, message: "Hi" } }))
        .statusCode
    ).toBe(403)
    expect((await server.call("replyToTicket", { body: { userId: customer.id, ticketId: ticket?.id, message: "Hi" } })).statusCode).toBe(
      403
    )
    const empty = await server.call("replyToTicket", {
      token: staffToken,
      body: { userId: customer.id, ticketId: ticket?.id, message: "" }
    })
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toMatchObject({ resultCode: 19, detail: "message: Please enter a message" })
    for (const [message, detail] of [
      [" \n\t ", "message: Please enter a message"],
      ["x".repeat(10_001), "message: Message is too long"]
    ]) {
      const refused = await server.call("replyToTicket", {
        token: staffToken,
        body: { userId: customer.id, ticketId: ticket?.id, message }
      })
      expect(refused.statusCode).toBe(400)
      expect(refused.json()).toMatchObject({ resultCode: 19, detail })
    }
    expect((await mails()).length).toBe(before)
  })

  it("answers NOT_FOUND for an unknown ticket and 400 for a bad update", async () => {
    for (const ticketId of [999_999, 2 ** 40]) {
      const response = await server.call("updateTicket", { token: staffToken, body: { ticketId, newStatus: 2 } })
      expect(response.json()).toEqual({ success: false, resultCode: 24, detail: "Ticket not found" })
    }
    for (const [body, detail] of [
      [{ ticketId: 1, newStatus: 4 }, "newStatus: Expected 1 | 2 | 3"],
      [{ ticketId: "1", newStatus: 2 }, "ticketId: Expected number"],
      [{ ticketId: 1.5, newStatus: 2 }, "ticketId: Expected an integer"]
    ] as const) {
      const response = await server.call("updateTicket", { token: staffToken, body })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
    }
  })

  it("refuses status changes from customers and leaves the ticket alone", async () => {
    const before = await ticketRows()
    const response = await server.call("updateTicket", { token: customerToken, body: { ticketId: before[0]?.id, newStatus: 3 } })
    expect(response.statusCode).toBe(403)
    expect(await ticketRows()).toEqual(before)
  })
})
