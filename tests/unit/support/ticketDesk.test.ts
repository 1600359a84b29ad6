import { describe, expect, it } from "vitest"
import { Ticket } from "../../../src/domain/Ticket.ts"
import { filterTickets, formatSpan, responseTimes } from "../../../src/domain/TicketDesk.ts"

const NOW = Date.parse("2026-11-25T12:00:00.000Z")
const HOUR = 3_600_000
const ticket = (id: number, createdHoursAgo: number, answeredAfterHours: number | null, fields: Partial<Ticket> = {}) =>
  new Ticket({
    id,
    user__id: 1,
    user__email: "a@example.com",
    type: 1,
    subject: `Ticket ${id}`,
    description: "",
    status: 1,
    created_at: new Date(NOW - createdHoursAgo * HOUR).toISOString(),
    resolved_at: null,
    first_response_at: answeredAfterHours === null ? null : new Date(NOW - (createdHoursAgo - answeredAfterHours) * HOUR).toISOString(),
    player_context: null,
    ...fields
  })

describe("the desk's figures", () => {
  it("takes the median and 90th percentile of first answers over the last 30 days only", () => {
    const tickets = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((wait, index) => ticket(index, 48, wait))
    expect(responseTimes([...tickets, ticket(20, 24 * 31, 100), ticket(21, 5, null)], NOW)).toEqual({
      median: 5 * HOUR,
      p90: 9 * HOUR,
      answered: 10
    })
    expect(responseTimes([ticket(1, 5, null)], NOW)).toBeNull()
  })

  it("writes spans for people", () => {
    expect(formatSpan(20_000)).toBe("under a minute")
    expect(formatSpan(45 * 60_000)).toBe("45 min")
    expect(formatSpan(3 * HOUR)).toBe("3 h")
    expect(formatSpan(3 * HOUR + 20 * 60_000)).toBe("3 h 20 min")
    expect(formatSpan(52 * HOUR)).toBe("2 d 4 h")
    expect(formatSpan(48 * HOUR)).toBe("2 d")
  })

  it("filters by category and by every word of the search, in subject or description", () => {
    const tickets = [
      ticket(1, 1, null, { type: 2, subject: "Charged twice", description: "Two payments" }),
      ticket(2, 1, null, { type: 3, subject: "Frozen", description: "Sports One froze twice" })
    ]
    expect(filterTickets(tickets, { category: null, search: "" }).map((t) => t.id)).toEqual([1, 2])
    expect(filterTickets(tickets, { category: 3, search: "" }).map((t) => t.id)).toEqual([2])
    expect(filterTickets(tickets, { category: null, search: "  TWICE " }).map((t) => t.id)).toEqual([1, 2])
    expect(filterTickets(tickets, { category: null, search: "twice payments" }).map((t) => t.id)).toEqual([1])
    expect(filterTickets(tickets, { category: 5, search: "" })).toEqual([])
  })
})
