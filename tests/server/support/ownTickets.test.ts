import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer, tableCounts } from "../../support/testServer.ts"

const HOUR = 60 * 60 * 1000
const CONTEXT = { stream: "Demo Channel 1", player: 2, errorCode: 2, browser: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0" }
const HOSTILE = `<img src=x onerror="alert('x')">`

describe.each(dialects)("a viewer's own tickets, the attached player context and the hourly limit ($name)", (dialect) => {
  let server: TestServer
  let customerToken: string
  let otherToken: string
  let staffToken: string

  beforeAll(async () => {
    server = await startTestServer(dialect)
    await server.addUser({ email: "viewer@example.com" })
    await server.addUser({ email: "other@example.com" })
    await server.addUser({ email: "staff@example.com", staff: true })
    customerToken = await server.signIn("viewer@example.com")
    otherToken = await server.signIn("other@example.com")
    staffToken = await server.signIn("staff@example.com")
  })
  afterAll(() => server.dispose())

  const create = (token: string, body: object) => server.call("createTicket", { token, body })
  const storedRows = () => server.db.kysely.selectFrom("tickets").selectAll().orderBy("id").execute()

  it("stores the attached player context as JSON, and the desk reads it back", async () => {
    const response = await create(customerToken, {
      type: 3,
      subject: "Problem playing Demo Channel 1",
      description: "It stops every minute",
      playerContext: CONTEXT
    })
    expect(response.json()).toEqual({ success: true, resultCode: 1, detail: "Ticket submitted" })
    const [row] = await storedRows()
    expect(JSON.parse(row?.player_context ?? "null")).toEqual(CONTEXT)
    const desk = (await server.call("tickets", { token: staffToken })).json() as { data: Array<{ player_context: unknown }> }
    expect(desk.data[0]?.player_context).toEqual(CONTEXT)
  })

  it("stores no context when none is attached", async () => {
    server.clock += 1000
    await create(customerToken, { type: 2, subject: "Invoice", description: "Where is my receipt?" })
    expect((await storedRows()).at(-1)?.player_context).toBeNull()
  })

  it("keeps subject and description byte for byte, markup included", async () => {
    server.clock += 1000
    const subject = `  ${HOSTILE} ünïcødé 🎥 `
    const description = `${HOSTILE}\r\n\tline two <script>alert(1)</script>  `
    await create(customerToken, { type: 5, subject, description })
    const row = (await storedRows()).at(-1)
    expect(row?.subject).toBe(subject)
    expect(row?.description).toBe(description)
    const mine = (await server.call("myTickets", { token: customerToken })).json() as {
      data: Array<{ subject: string; description: string }>
    }
    expect(mine.data[0]).toMatchObject({ subject, description })
  })

  it.each([
    [
      { type: 3, subject: "x", description: "long enough", playerContext: { ...CONTEXT, player: 3 } },
      "playerContext.player: Expected 1 | 2"
    ],
    [
      { type: 3, subject: "x", description: "long enough", playerContext: { ...CONTEXT, stream: "" } },
      "playerContext.stream: Expected a value with a length of at least 1"
    ],
    [
      { type: 3, subject: "x", description: "long enough", playerContext: { ...CONTEXT, browser: "b".repeat(301) } },
      "playerContext.browser: Expected a value with a length of at most 300"
    ],
    [{ type: 3, subject: "   ", description: "long enough" }, "subject: Please enter a subject"],
    [{ type: 3, subject: "x", description: " \n \n \n " }, "description: Please enter a description"],
    [{ type: 3, subject: "s".repeat(201), description: "long enough" }, "subject: Subject is too long"],
    [{ type: 3, subject: "x", description: "d".repeat(10_001) }, "description: Description is too long"],
    [
      { type: 0, subject: "", description: "" },
      "type: Please select a vategory; subject: Please enter a subject; description: Please enter a description"
    ]
  ])("refuses %j with 400 and the invalid-input code, keeping nothing", async (body, detail) => {
    const before = await tableCounts(server.db)
    const response = await create(customerToken, body)
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail })
    expect(await tableCounts(server.db)).toEqual(before)
  })

  it("lists only the caller's own tickets, newest first, with their status and context", async () => {
    server.clock += 1000
    await create(otherToken, { type: 1, subject: "Someone else's", description: "Not yours to see" })
    const response = await server.call("myTickets", { token: customerToken })
    const { data } = response.json() as { data: Array<Record<string, unknown>> }
    expect(data.map((ticket) => ticket.subject)).toEqual([`  ${HOSTILE} ünïcødé 🎥 `, "Invoice", "Problem playing Demo Channel 1"])
    expect(data[2]).toMatchObject({ type: 3, status: 1, resolved_at: null, player_context: CONTEXT })
    expect(data[1]).toMatchObject({ type: 2, player_context: null })
    for (const ticket of data) {
      expect(Object.keys(ticket).sort()).toEqual([
        "created_at",
        "description",
        "id",
        "player_context",
        "resolved_at",
        "status",
        "subject",
        "type"
      ])
    }
    const others = (await server.call("myTickets", { token: otherToken })).json() as { data: Array<{ subject: string }> }
    expect(others.data.map((ticket) => ticket.subject)).toEqual(["Someone else's"])
  })

  it("shows the author a status staff set", async () => {
    const [first] = await storedRows()
    await server.call("updateTicket", { token: staffToken, body: { ticketId: first?.id, newStatus: 3 } })
    const { data } = (await server.call("myTickets", { token: customerToken })).json() as {
      data: Array<{ id: number; status: number; resolved_at: string | null }>
    }
    expect(data.find((ticket) => ticket.id === first?.id)).toMatchObject({ status: 3, resolved_at: new Date(server.clock).toISOString() })
  })

  it("answers staff their own tickets too, and refuses anonymous callers with 403", async () => {
    const staff = await server.call("myTickets", { token: staffToken })
    expect(staff.json()).toEqual({ success: true, data: [] })
    const anonymous = await server.call("myTickets")
    expect(anonymous.statusCode).toBe(403)
    expect(anonymous.json()).toEqual({ success: false, status: 403, detail: "Please sign in to continue." })
  })

  it("takes 10 tickets an hour from one account; the 11th is a 429 that says the limit and when to try again", async () => {
    const user = await server.addUser()
    const token = await server.signIn(user.email)
    const start = server.clock
    for (let i = 0; i < 10; i += 1) {
      server.clock = start + i * 60_000
      expect((await create(token, { type: 5, subject: `Ticket ${i}`, description: "Counting up" })).statusCode).toBe(200)
    }
    server.clock = start + 20 * 60_000
    const before = await tableCounts(server.db)
    const refused = await create(token, { type: 5, subject: "Eleventh", description: "One too many" })
    expect(refused.statusCode).toBe(429)
    expect(refused.headers["retry-after"]).toBe(String(40 * 60))
    expect(refused.json()).toEqual({ success: false, status: 429, detail: "You can open 10 tickets an hour. Try again in 40 minutes." })
    expect(await tableCounts(server.db)).toEqual(before)

    // another account is not held back by this one
    expect((await create(otherToken, { type: 5, subject: "Mine", description: "Still fine" })).statusCode).toBe(200)

    // the first ticket leaves the window an hour after it was opened, and frees one place
    server.clock = start + HOUR - 30_000
    const soon = await create(token, { type: 5, subject: "Eleventh", description: "Almost" })
    expect(soon.json()).toEqual({ success: false, status: 429, detail: "You can open 10 tickets an hour. Try again in 30 seconds." })
    server.clock = start + HOUR
    expect((await create(token, { type: 5, subject: "Eleventh", description: "Now it fits" })).statusCode).toBe(200)
    expect((await create(token, { type: 5, subject: "Twelfth", description: "Not yet" })).statusCode).toBe(429)
  })

  it("counts tickets sent at the same moment one after the other", async () => {
    const user = await server.addUser()
    const token = await server.signIn(user.email)
    server.clock += 2 * HOUR
    const responses = await Promise.all(
      Array.from({ length: 14 }, (_, i) => create(token, { type: 1, subject: `Burst ${i}`, description: "All at once" }))
    )
    expect(responses.map((response) => response.statusCode).sort()).toEqual([...Array(10).fill(200), ...Array(4).fill(429)])
    const stored = await server.db.kysely.selectFrom("tickets").select("id").where("user_id", "=", user.id).execute()
    expect(stored).toHaveLength(10)
  })
})
