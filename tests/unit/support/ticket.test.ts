import { describe, expect, it } from "vitest"
import { decodeWith } from "../../../src/domain/decode.ts"
import {
  CATEGORY_MESSAGE,
  DESCRIPTION_MESSAGE,
  NewTicket,
  type PlayerContext,
  playerContextFromQuery,
  playerContextQuery,
  problemSubject,
  reportProblemPath,
  SUBJECT_MESSAGE,
  TICKET_CATEGORIES,
  ticketCategoryLabel,
  ticketStatusLabel,
  validateNewTicket
} from "../../../src/domain/Ticket.ts"

const CONTEXT: PlayerContext = {
  stream: "Demo Channel 1",
  player: 2,
  errorCode: 1002,
  browser: "Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0"
}

describe("ticket validation (SPEC §5)", () => {
  it("names every field that breaks its rule, with the exact message", () => {
    expect(validateNewTicket({ type: 0, subject: "", description: "" })).toEqual({
      ok: false,
      errors: { type: CATEGORY_MESSAGE, subject: SUBJECT_MESSAGE, description: DESCRIPTION_MESSAGE }
    })
    expect(CATEGORY_MESSAGE).toBe("Please select a vategory")
    expect(validateNewTicket({ type: 6, subject: "s", description: "123456" })).toEqual({
      ok: false,
      errors: { type: "Please select a vategory" }
    })
    expect(validateNewTicket({ subject: "s", description: "123456" })).toEqual({ ok: false, errors: { type: "Missing key" } })
  })

  it("takes a one-character subject and a six-character description, exactly as typed", () => {
    const ticket = { type: 3, subject: "s", description: "123456" }
    expect(validateNewTicket(ticket)).toEqual({ ok: true, ticket })
    const spaced = { type: 1, subject: "  <img src=x onerror=alert(1)>  ", description: "\n  a    b  \n" }
    expect(validateNewTicket(spaced)).toEqual({ ok: true, ticket: spaced })
  })

  it("does not count white space: a blank subject or a description of spaces says nothing", () => {
    expect(validateNewTicket({ type: 1, subject: " \t\n", description: "123456" })).toEqual({
      ok: false,
      errors: { subject: SUBJECT_MESSAGE }
    })
    expect(validateNewTicket({ type: 1, subject: "s", description: "  12345  " })).toEqual({
      ok: false,
      errors: { description: DESCRIPTION_MESSAGE }
    })
    expect(validateNewTicket({ type: 1, subject: "s", description: " 1    6 " }).ok).toBe(true)
  })

  it("takes a stream request of any length: its description is the channel asked for", () => {
    expect(validateNewTicket({ type: 3, subject: "stream request", description: "TV2" })).toEqual({
      ok: true,
      ticket: { type: 3, subject: "stream request", description: "TV2" }
    })
    expect(validateNewTicket({ type: 3, subject: "stream request", description: "  " })).toEqual({
      ok: false,
      errors: { description: DESCRIPTION_MESSAGE }
    })
    // the same text is too short for any other ticket, and is named beside the other fields' messages
    expect(validateNewTicket({ type: 2, subject: "stream request", description: "TV2" })).toEqual({
      ok: false,
      errors: { description: DESCRIPTION_MESSAGE }
    })
    expect(validateNewTicket({ type: 3, subject: "", description: "TV2" })).toEqual({
      ok: false,
      errors: { subject: SUBJECT_MESSAGE, description: DESCRIPTION_MESSAGE }
    })
    expect(decodeWith(NewTicket)({ type: 3, subject: "a request", description: "TV2" })).toEqual({
      ok: false,
      detail: "description: Please enter a description"
    })
  })

  it("refuses text past the maximum lengths", () => {
    expect(validateNewTicket({ type: 1, subject: "s".repeat(201), description: "123456" })).toEqual({
      ok: false,
      errors: { subject: "Subject is too long" }
    })
    expect(validateNewTicket({ type: 1, subject: "s".repeat(200), description: "d".repeat(10_000) }).ok).toBe(true)
    expect(validateNewTicket({ type: 1, subject: "s", description: "d".repeat(10_001) })).toEqual({
      ok: false,
      errors: { description: "Description is too long" }
    })
  })

  it("takes a valid player context and refuses a broken one", () => {
    expect(validateNewTicket({ type: 3, subject: "s", description: "123456", playerContext: CONTEXT }).ok).toBe(true)
    expect(validateNewTicket({ type: 3, subject: "s", description: "123456", playerContext: { ...CONTEXT, player: 3 } })).toEqual({
      ok: false,
      errors: { playerContext: "Expected 1 | 2" }
    })
    expect(decodeWith(NewTicket)({ type: 3, subject: "s", description: "123456", playerContext: { ...CONTEXT, errorCode: 1.5 } })).toEqual({
      ok: false,
      detail: "playerContext.errorCode: Expected an integer"
    })
  })
})

describe("the player context of a 'Report a problem' link", () => {
  it("reads back what the link carries", () => {
    expect(playerContextQuery(CONTEXT)).toBe(
      "stream=Demo+Channel+1&player=2&error=1002&browser=Mozilla%2F5.0+%28X11%3B+Linux+x86_64%29+Chrome%2F156.0"
    )
    expect(playerContextFromQuery(playerContextQuery(CONTEXT))).toEqual(CONTEXT)
    expect(playerContextFromQuery(`?${playerContextQuery(CONTEXT)}`)).toEqual(CONTEXT)
    expect(reportProblemPath(CONTEXT)).toBe(`/contactus?${playerContextQuery(CONTEXT)}`)
  })

  it("cuts a long stream name and browser to what the schema takes, so the link always reads back", () => {
    const long = { ...CONTEXT, stream: "S".repeat(250), browser: "B".repeat(500) }
    expect(playerContextFromQuery(playerContextQuery(long))).toEqual({ ...CONTEXT, stream: "S".repeat(200), browser: "B".repeat(300) })
  })

  it("keeps names with markup and symbols as text", () => {
    const odd = { ...CONTEXT, stream: `<script>alert("x")</script> & Co #1 ?a=b`, browser: "" }
    expect(playerContextFromQuery(playerContextQuery(odd))).toEqual(odd)
  })

  it("attaches nothing when the query has no context or a broken one", () => {
    const base = new URLSearchParams(playerContextQuery(CONTEXT))
    const broken = (changes: Record<string, string | null>) => {
      const params = new URLSearchParams(base)
      for (const [key, value] of Object.entries(changes)) value === null ? params.delete(key) : params.set(key, value)
      return params.toString()
    }
    for (const search of [
      "",
      "?",
      "?default=2",
      "stream=",
      broken({ stream: null }),
      broken({ stream: "" }),
      broken({ stream: "x".repeat(201) }),
      broken({ player: "3" }),
      broken({ player: "0" }),
      broken({ player: "2.0" }),
      broken({ player: " 2" }),
      broken({ player: null }),
      broken({ error: "-1" }),
      broken({ error: "1e3" }),
      broken({ error: "0x10" }),
      broken({ error: "100000" }),
      broken({ error: "" }),
      broken({ error: null }),
      broken({ browser: "b".repeat(301) }),
      "%E0%A4%A=broken&stream=%ZZ"
    ]) {
      expect(playerContextFromQuery(search), search).toBeUndefined()
    }
  })

  it("takes a missing browser as unknown, and error code 0 for an error without a media code", () => {
    expect(playerContextFromQuery(new URLSearchParams({ stream: "A", player: "1", error: "0" }).toString())).toEqual({
      stream: "A",
      player: 1,
      errorCode: 0,
      browser: ""
    })
  })

  it("starts the subject with the stream's name, within the subject's limit", () => {
    expect(problemSubject(CONTEXT)).toBe("Problem playing Demo Channel 1")
    expect(problemSubject({ ...CONTEXT, stream: "S".repeat(200) })).toHaveLength(200)
  })
})

describe("ticket labels", () => {
  it("offers the five categories in SPEC order with readable labels", () => {
    expect(TICKET_CATEGORIES).toEqual([
      { value: 1, label: "Bug report" },
      { value: 2, label: "Billing" },
      { value: 3, label: "Stream service" },
      { value: 4, label: "Subscription" },
      { value: 5, label: "Other" }
    ])
    expect(ticketCategoryLabel(9)).toBe("Unknown")
  })

  it("names the statuses for their author", () => {
    expect([1, 2, 3].map((status) => ticketStatusLabel(status as 1 | 2 | 3))).toEqual(["Open", "In progress", "Resolved"])
  })
})
