import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { controlCharacterPath } from "../../../src/domain/decode.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer, tableCounts } from "../../support/testServer.ts"

describe("control characters in what clients send", () => {
  it("are found wherever they are, but for tabs and line breaks", () => {
    expect(controlCharacterPath({ subject: "a\u0000b" })).toBe("subject")
    expect(controlCharacterPath({ events: [{ ids: { media_id: "1\u001b" } }] })).toBe("events.0.ids.media_id")
    expect(controlCharacterPath("\u007f")).toBe("")
    expect(controlCharacterPath({ description: "line one\r\nline two\tend", n: 1, ok: true, none: null })).toBeUndefined()
    let deep: unknown = "\u0001"
    for (let n = 0; n < 100_000; n++) deep = [deep]
    expect(controlCharacterPath(deep)?.startsWith("0.0.0")).toBe(true)
  })
})

describe.each(dialects)("control characters are invalid input ($name)", (dialect) => {
  let server: TestServer
  let customer: string
  beforeAll(async () => {
    server = await startTestServer(dialect)
    await server.addUser({ email: "writer@example.com" })
    customer = await server.signIn("writer@example.com")
  })
  afterAll(() => server.dispose())

  it("answers 400 resultCode 19 for a NUL in a body, a path or a query, and stores nothing", async () => {
    const before = await tableCounts(server.db)
    const refusals = [
      await server.call("createTicket", { token: customer, body: { type: 1, subject: "Hello\u0000", description: "Nothing works here" } }),
      await server.call("updateUsernameAndEmail", {
        token: customer,
        body: { username: "a\u0000b", email: "writer@example.com", password: "correct horse" }
      }),
      await server.app.inject({ method: "GET", url: "/api/invitations/invitation/a%00b" }),
      await server.app.inject({ method: "GET", url: "/api/scheduler/2026-01-15?tz=Europe%2FOslo%00", headers: { token: customer } }),
      await server.app.inject({
        method: "POST",
        url: "/api/health-events",
        headers: { "content-type": "text/plain" },
        payload: JSON.stringify({
          token: customer,
          events: [
            {
              session_id: "s\u0000",
              device_id: "d",
              version: "v",
              source: "hls",
              page_url: "/",
              event: "playing",
              current_time: 0,
              client_time: 0,
              adjusted_time: 0
            }
          ]
        })
      })
    ]
    for (const response of refusals) {
      expect(response.statusCode, response.body).toBe(400)
      expect(response.json()).toMatchObject({
        success: false,
        status: 400,
        resultCode: 19,
        detail: expect.stringContaining("Control characters are not allowed")
      })
    }
    expect(refusals[0]?.json().detail).toBe("subject: Control characters are not allowed")
    expect(await tableCounts(server.db)).toEqual(before)
  })

  it("still takes a ticket's line breaks and tabs", async () => {
    const response = await server.call("createTicket", {
      token: customer,
      body: { type: 1, subject: "Two lines", description: "First line\r\nSecond\tline" }
    })
    expect(response.json()).toMatchObject({ success: true, resultCode: 1 })
  })
})
