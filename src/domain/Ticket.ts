import * as Result from "effect/Result"
import * as Schema from "effect/Schema"
import * as SchemaIssue from "effect/SchemaIssue"
import * as Struct from "effect/Struct"
import { decodeWith } from "./decode.ts"

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

/** The desk's name for a category; a number outside the set is "unknown" (SPEC §3). */
export const ticketCategoryName = (category: number): string => categoryNames[category as TicketCategory] ?? "unknown"
/** A category as people read it in a sentence or a list: "Stream service". */
export function ticketCategoryLabel(category: number): string {
  const name = ticketCategoryName(category)
  return `${name.charAt(0).toUpperCase()}${name.slice(1)}`
}

/** Ticket statuses (SPEC §3, §4): numbers on the wire, named on the desk. */
export const TicketStatus = { OPEN: 1, IN_PROGRESS: 2, RESOLVED: 3 } as const
export type TicketStatus = (typeof TicketStatus)[keyof typeof TicketStatus]
export const TicketStatusSchema = Schema.Literals([TicketStatus.OPEN, TicketStatus.IN_PROGRESS, TicketStatus.RESOLVED])

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

/**
 * At least `min` characters between the first and the last that are not white space: a subject of
 * spaces, or a description of six line breaks, says nothing. The text itself is kept as typed.
 */
const visibleLength = (min: number): RegExp => (min <= 1 ? /\S/ : new RegExp(`\\S[\\s\\S]{${min - 2},}\\S`))

/** A stream request is a stream-service ticket with this subject (SPEC §3). */
export const STREAM_REQUEST_SUBJECT = "stream request"
const isStreamRequest = (ticket: { readonly type: unknown; readonly subject: unknown }): boolean =>
  ticket.type === TicketCategory.STREAM_SERVICE && typeof ticket.subject === "string" && ticket.subject.trim() === STREAM_REQUEST_SUBJECT

// A stream request's description is the channel asked for ("ESPN", "TV2"): any text will do
// (SPEC §5); every other ticket describes its matter in six characters or more.
const describedEnough = visibleLength(TICKET_DESCRIPTION_MIN_LENGTH)
const lacksDescription = (ticket: { readonly type: unknown; readonly subject: unknown; readonly description: unknown }): boolean =>
  typeof ticket.description === "string" && !isStreamRequest(ticket) && !describedEnough.test(ticket.description)

export const NewTicket = Schema.Struct({
  type: TicketCategorySchema,
  subject: Schema.String.check(
    Schema.isPattern(visibleLength(TICKET_SUBJECT_MIN_LENGTH), { message: SUBJECT_MESSAGE }),
    Schema.isMaxLength(TICKET_SUBJECT_MAX_LENGTH, { message: "Subject is too long" })
  ),
  description: Schema.String.check(
    Schema.isPattern(visibleLength(1), { message: DESCRIPTION_MESSAGE }),
    Schema.isMaxLength(TICKET_DESCRIPTION_MAX_LENGTH, { message: "Description is too long" })
  ),
  playerContext: Schema.optionalKey(PlayerContext)
}).check(Schema.makeFilter((ticket) => !lacksDescription(ticket) || { path: ["description"], issue: DESCRIPTION_MESSAGE }))
export type NewTicket = typeof NewTicket.Type

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
  /** when staff first answered, by reply or status change */
  first_response_at: Schema.NullOr(Schema.String),
  player_context: Schema.NullOr(PlayerContext)
}) {}

/** A ticket as its author sees it on /contactus: their own, so without the desk's author and first-answer fields. */
export class OwnTicket extends Schema.Class<OwnTicket>("OwnTicket")(
  Struct.omit(Ticket.fields, ["user__id", "user__email", "first_response_at"])
) {}

/** The /contactus route, where tickets are opened. */
export const CONTACT_ROUTE = "/contactus"

/** The categories in their SPEC order, as the ticket form offers them: "Bug report". */
export const TICKET_CATEGORIES: ReadonlyArray<{ readonly value: TicketCategory; readonly label: string }> = (
  Object.keys(categoryNames).map(Number) as Array<TicketCategory>
).map((value) => ({ value, label: ticketCategoryLabel(value) }))

const statusLabels: Readonly<Record<TicketStatus, string>> = { 1: "Open", 2: "In progress", 3: "Resolved" }
/** A status as its author reads it on /contactus: "In progress". */
export const ticketStatusLabel = (status: TicketStatus): string => statusLabels[status]

/** The players by number (SPEC §4), as a player context names them. */
export const playerLabel = (player: PlayerContext["player"]): string => (player === 1 ? "TV player" : "Low-latency player")

export const PLAYER_CONTEXT_STREAM_MAX_LENGTH = 200
export const PLAYER_CONTEXT_BROWSER_MAX_LENGTH = 300

const decodePlayerContext = decodeWith(PlayerContext)
const wholeNumber = (text: string | null): number | undefined => (text !== null && /^\d{1,5}$/.test(text) ? Number(text) : undefined)

/**
 * The query string of a 'Report a problem' link: `stream`, `player`, `error` (the media error
 * code) and `browser`. Long names are cut to what PlayerContext accepts, so the link always reads back.
 */
export const playerContextQuery = (context: PlayerContext): string =>
  new URLSearchParams({
    stream: context.stream.slice(0, PLAYER_CONTEXT_STREAM_MAX_LENGTH),
    player: String(context.player),
    error: String(context.errorCode),
    browser: context.browser.slice(0, PLAYER_CONTEXT_BROWSER_MAX_LENGTH)
  }).toString()

/** Where a player's error box sends the viewer: the ticket form with what failed attached. */
export const reportProblemPath = (context: PlayerContext): string => `${CONTACT_ROUTE}?${playerContextQuery(context)}`

/** The player context of a /contactus query string; undefined when it carries none, or one that does not read as one. */
export const playerContextFromQuery = (search: string): PlayerContext | undefined => {
  const params = new URLSearchParams(search)
  const stream = params.get("stream")
  if (stream === null) return undefined
  const decoded = decodePlayerContext({
    stream,
    player: wholeNumber(params.get("player")),
    errorCode: wholeNumber(params.get("error")),
    browser: params.get("browser") ?? ""
  })
  return decoded.ok ? decoded.value : undefined
}

/** The subject a reported problem starts with; the viewer may change it. */
export const problemSubject = (context: PlayerContext): string => `Problem playing ${context.stream}`.slice(0, TICKET_SUBJECT_MAX_LENGTH)

export type TicketField = keyof NewTicket
export type TicketFieldErrors = Partial<Record<TicketField, string>>

const decodeTicket = Schema.decodeUnknownResult(NewTicket, { errors: "all" })
const issuesOf = SchemaIssue.makeFormatterStandardSchemaV1()

/** The ticket, or each field's first message (SPEC §5), to show at that field. */
export const validateNewTicket = (
  input: unknown
): { readonly ok: true; readonly ticket: NewTicket } | { readonly ok: false; readonly errors: TicketFieldErrors } => {
  const result = decodeTicket(input)
  if (Result.isSuccess(result)) return { ok: true, ticket: result.success }
  const errors: TicketFieldErrors = {}
  for (const issue of issuesOf(result.failure.issue).issues) {
    const [first] = issue.path ?? []
    if (first === undefined) continue
    const key = String(typeof first === "object" ? first.key : first) as TicketField
    errors[key] ??= issue.message
  }
  // the schema checks a description's length against the rest only once every field is valid;
  // the form names every field at once
  if (
    typeof input === "object" &&
    input !== null &&
    "type" in input &&
    "subject" in input &&
    "description" in input &&
    lacksDescription(input)
  ) {
    errors.description ??= DESCRIPTION_MESSAGE
  }
  return { ok: false, errors }
}
