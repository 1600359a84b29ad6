import { Schema } from "effect"

export const SUBJECT_MESSAGE = "Please enter a subject"
export const DESCRIPTION_MESSAGE = "Please enter a description"
export const CATEGORY_MESSAGE = "Please select a vategory"

export const TICKET_SUBJECT_MIN_LENGTH = 1
export const TICKET_DESCRIPTION_MIN_LENGTH = 6

/**
 * A ticket's category (SPEC §3). On the wire a ticket carries it as `type`; everywhere else it
 * is the category. The numbers are the closed set SPEC defines.
 */
export const TicketCategory = { BUG_REPORT: 1, BILLING: 2, STREAM_SERVICE: 3, SUBSCRIPTION: 4, OTHER: 5 } as const
export type TicketCategory = (typeof TicketCategory)[keyof typeof TicketCategory]

const categoryNames: Readonly<Record<TicketCategory, string>> = {
  1: "bug report",
  2: "billing",
  3: "stream service",
  4: "subscription",
  5: "other"
}
const isTicketCategory = (value: number): value is TicketCategory => Object.hasOwn(categoryNames, value)

/** A number first ("Expected number" otherwise), then one of the set ("Please select a vategory"). */
export const TicketCategorySchema = Schema.Number.pipe(Schema.refine(isTicketCategory, { message: CATEGORY_MESSAGE }))
export const TICKET_CATEGORY_COUNT = Object.keys(categoryNames).length

/** The desk's name for a category; a number outside the set is "unknown" (SPEC §3). */
export const ticketCategoryName = (category: number): string => categoryNames[category as TicketCategory] ?? "unknown"

/** Ticket statuses (SPEC §3, §4): numbers on the wire, named on the desk. */
export const TicketStatus = { OPEN: 1, IN_PROGRESS: 2, RESOLVED: 3 } as const
export type TicketStatus = (typeof TicketStatus)[keyof typeof TicketStatus]
export type TicketStatusName = keyof typeof TicketStatus
export const TicketStatusSchema = Schema.Literals([TicketStatus.OPEN, TicketStatus.IN_PROGRESS, TicketStatus.RESOLVED])
export const TICKET_STATUS_COUNT = Object.keys(TicketStatus).length

export const TICKET_SUBJECT_MAX_LENGTH = 200
export const TICKET_DESCRIPTION_MAX_LENGTH = 10_000
/** Tickets one account may open in an hour; more answer 429. */
export const TICKETS_PER_HOUR = 10

/**
 * What a viewer chose to attach from a player's error box ('Report a problem'): which stream in
 * which player failed with which media error code (SPEC §8), and the browser it happened in.
 */
export const PlayerContext = Schema.Struct({
  stream: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)),
  /** 1 TV player, 2 low-latency player (SPEC §4) */
  player: Schema.Literals([1, 2]),
  errorCode: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 99_999 })),
  browser: Schema.String.check(Schema.isMaxLength(300))
})
export type PlayerContext = typeof PlayerContext.Type

export const NewTicket = Schema.Struct({
  type: TicketCategorySchema,
  subject: Schema.String.check(
    Schema.isMinLength(TICKET_SUBJECT_MIN_LENGTH, { message: SUBJECT_MESSAGE }),
    Schema.isMaxLength(TICKET_SUBJECT_MAX_LENGTH, { message: "Subject is too long" })
  ),
  description: Schema.String.check(
    Schema.isMinLength(TICKET_DESCRIPTION_MIN_LENGTH, { message: DESCRIPTION_MESSAGE }),
    Schema.isMaxLength(TICKET_DESCRIPTION_MAX_LENGTH, { message: "Description is too long" })
  ),
  playerContext: Schema.optionalKey(PlayerContext)
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
  type: TicketCategorySchema,
  subject: Schema.String,
  description: Schema.String,
  status: TicketStatusSchema,
  created_at: Schema.String,
  resolved_at: Schema.NullOr(Schema.String),
  player_context: Schema.NullOr(PlayerContext)
}) {}

/** A ticket as its author sees it on /contactus: their own, with where it stands. */
export class OwnTicket extends Schema.Class<OwnTicket>("OwnTicket")({
  id: Schema.Number,
  type: TicketCategorySchema,
  subject: Schema.String,
  description: Schema.String,
  status: TicketStatusSchema,
  created_at: Schema.String,
  resolved_at: Schema.NullOr(Schema.String),
  player_context: Schema.NullOr(PlayerContext)
}) {}
