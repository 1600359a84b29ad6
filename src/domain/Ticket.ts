import { Schema } from "effect"
import { TICKET_DESCRIPTION_MIN_LENGTH, TICKET_SUBJECT_MIN_LENGTH } from "./constants.ts"

/** Ticket categories (SPEC §3). */
export const TicketCategory = { BUG_REPORT: 1, BILLING: 2, STREAM_SERVICE: 3, SUBSCRIPTION: 4, OTHER: 5 } as const
export const TicketType = Schema.Literals([1, 2, 3, 4, 5])
export type TicketType = typeof TicketType.Type

const typeNames: Record<number, string> = {
  1: "bug report",
  2: "billing",
  3: "stream service",
  4: "subscription",
  5: "other"
}
export const ticketTypeName = (type: number): string => typeNames[type] ?? "unknown"

/** Ticket statuses: numeric on the wire, named on the desk. */
export const TicketStatus = { OPEN: 1, IN_PROGRESS: 2, RESOLVED: 3 } as const
export const TicketStatusNumber = Schema.Literals([1, 2, 3])
export type TicketStatusNumber = typeof TicketStatusNumber.Type
export type TicketStatusName = keyof typeof TicketStatus

export const SUBJECT_MESSAGE = "Please enter a subject"
export const DESCRIPTION_MESSAGE = "Please enter a description"
export const CATEGORY_MESSAGE = "Please select a vategory"

export const NewTicket = Schema.Struct({
  type: Schema.Number.check(Schema.isInt(), Schema.isBetween({ minimum: 1, maximum: 5 }, { message: CATEGORY_MESSAGE })),
  subject: Schema.String.check(
    Schema.isMinLength(TICKET_SUBJECT_MIN_LENGTH, { message: SUBJECT_MESSAGE }),
    Schema.isMaxLength(200, { message: "Subject is too long" })
  ),
  description: Schema.String.check(
    Schema.isMinLength(TICKET_DESCRIPTION_MIN_LENGTH, { message: DESCRIPTION_MESSAGE }),
    Schema.isMaxLength(10_000, { message: "Description is too long" })
  )
})
export type NewTicket = typeof NewTicket.Type

/** A stream request is a stream-service ticket with this subject (SPEC §3). */
export const STREAM_REQUEST_SUBJECT = "stream request"
export const streamRequestTicket = (text: string): NewTicket | undefined =>
  text.trim() === "" ? undefined : { type: TicketCategory.STREAM_SERVICE, subject: STREAM_REQUEST_SUBJECT, description: text.trim() }

export class Ticket extends Schema.Class<Ticket>("Ticket")({
  id: Schema.Number,
  user__id: Schema.Number,
  user__email: Schema.String,
  type: Schema.Number,
  subject: Schema.String,
  description: Schema.String,
  status: Schema.Number,
  created_at: Schema.String,
  resolved_at: Schema.NullOr(Schema.String)
}) {}
