import * as Schema from "effect/Schema"
import { type Ticket, TicketStatus } from "./Ticket.ts"

/** The desk's groups in SPEC order (SPEC §2 "Admin support"), each with its title. */
export const DESK_GROUPS = [
  { status: TicketStatus.OPEN, title: "Open Tickets" },
  { status: TicketStatus.IN_PROGRESS, title: "In Progress" },
  { status: TicketStatus.RESOLVED, title: "Resolved Tickets" }
] as const
export const EMPTY_GROUP = "None"

/** The status selector's names (SPEC §2): OPEN, IN PROGRESS, RESOLVED. */
export const STATUS_CHOICES = [
  { status: TicketStatus.OPEN, label: "OPEN" },
  { status: TicketStatus.IN_PROGRESS, label: "IN PROGRESS" },
  { status: TicketStatus.RESOLVED, label: "RESOLVED" }
] as const

/** What the desk says after Send Email (SPEC §5, as spelled there). */
export const REPLY_SENT = { title: "Success", message: "Email dded to qeue." } as const
export const REPLY_FAILED = { title: "Fail", message: "Failed to add email to queue." } as const
export const REPLY_MESSAGE_REQUIRED = "Please enter a message"
export const REPLY_MAX_LENGTH = 10_000

/** A reply mailed to a ticket's author: some text that is not all white space, and not a book. */
export const ReplyMessage = Schema.String.check(
  Schema.isPattern(/\S/, { message: REPLY_MESSAGE_REQUIRED }),
  Schema.isMaxLength(REPLY_MAX_LENGTH, { message: "Message is too long" })
)

export interface DeskFilter {
  /** a category number, or null for every category */
  readonly category: number | null
  readonly search: string
}

/** The tickets of a category whose subject or description holds the search words, in any case. */
export const filterTickets = (tickets: ReadonlyArray<Ticket>, { category, search }: DeskFilter): ReadonlyArray<Ticket> => {
  const words = search
    .toLocaleLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "")
  return tickets.filter((ticket) => {
    if (category !== null && ticket.type !== category) return false
    const text = `${ticket.subject}\n${ticket.description}`.toLocaleLowerCase()
    return words.every((word) => text.includes(word))
  })
}

const nearestRank = (sorted: ReadonlyArray<number>, fraction: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? 0

export const RESPONSE_WINDOW_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

/** How long staff took to first answer the tickets opened in the last 30 days; null with none answered. */
export const responseTimes = (tickets: ReadonlyArray<Ticket>, now: number): { median: number; p90: number; answered: number } | null => {
  const since = now - RESPONSE_WINDOW_DAYS * DAY_MS
  const waits = tickets
    .filter((ticket) => ticket.first_response_at !== null && Date.parse(ticket.created_at) >= since)
    .map((ticket) => Date.parse(ticket.first_response_at ?? "") - Date.parse(ticket.created_at))
    .filter((wait) => Number.isFinite(wait) && wait >= 0)
    .sort((a, b) => a - b)
  if (waits.length === 0) return null
  return { median: nearestRank(waits, 0.5), p90: nearestRank(waits, 0.9), answered: waits.length }
}

/** A span for people: "under a minute", "45 min", "3 h 20 min", "2 d 4 h". */
export const formatSpan = (ms: number): string => {
  const minutes = Math.floor(ms / 60_000)
  if (minutes < 1) return "under a minute"
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`
  const days = Math.floor(hours / 24)
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`
}
