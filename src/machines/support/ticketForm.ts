import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import {
  type NewTicket,
  type PlayerContext,
  problemSubject,
  TicketCategory,
  type TicketFieldErrors,
  validateNewTicket
} from "../../domain/Ticket.ts"
import { failureHint } from "../shared/answer.ts"
import type * as form from "../shared/form.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"

// SPEC §8, exact strings
export const TICKET_SUCCESS_TITLE = "Success!"
export const TICKET_FAILURE_TITLE = "Something went wrong"

export const TICKETS_FAILED_MESSAGE = "Your tickets could not be loaded."

/** The form's fields in the order they are shown: the first with a message gets the focus. */
export const CONTACT_FIELDS = ["category", "subject", "description"] as const
export type ContactField = (typeof CONTACT_FIELDS)[number]
export type ContactValues = form.Values<ContactField>
export type ContactErrors = form.Errors<ContactField>

export const EMPTY_VALUES: ContactValues = { category: "", subject: "", description: "" }

/** A reported problem starts as a stream-service ticket with a subject naming the stream. */
export const valuesFor = (attachment: PlayerContext | null): ContactValues =>
  attachment === null
    ? EMPTY_VALUES
    : { category: String(TicketCategory.STREAM_SERVICE), subject: problemSubject(attachment), description: "" }

/** What the form would send: the category chosen in the select ("" is none), the text as typed. */
const draftOf = (values: ContactValues, attachment: PlayerContext | null) => ({
  type: values.category === "" ? 0 : Number(values.category),
  subject: values.subject,
  description: values.description,
  ...(attachment === null ? {} : { playerContext: attachment })
})

const fieldErrorsOf = (errors: TicketFieldErrors): ContactErrors => {
  const shown: ContactErrors = {}
  if (errors.type !== undefined) shown.category = errors.type
  if (errors.subject !== undefined) shown.subject = errors.subject
  if (errors.description !== undefined) shown.description = errors.description
  return shown
}

/** The ticket the domain's NewTicket accepts, or each field's message (SPEC §5). */
export const checkTicket = (
  values: ContactValues,
  attachment: PlayerContext | null
): { readonly ok: true; readonly ticket: NewTicket } | { readonly ok: false; readonly errors: ContactErrors } => {
  const checked = validateNewTicket(draftOf(values, attachment))
  return checked.ok ? checked : { ok: false, errors: fieldErrorsOf(checked.errors) }
}

/**
 * The server looked at the ticket and said no: a result code in its answer, or a 4xx such as the
 * hourly limit. A 404 is not one: it is what an answer that was not JSON comes to (SPEC §8).
 */
const saidNo = (answer: Answer<"createTicket">): boolean =>
  answer._tag === "ok" || (answer._tag === "refused" && answer.status >= 400 && answer.status < 500 && answer.status !== 404)

/** The server's detail when it said no to the ticket; otherwise the hint for a failure that sending again may fix. */
export const ticketFailureMessage = (answer: Answer<"createTicket">): string =>
  (saidNo(answer) ? detailOf(answer) : undefined) ?? failureHint(answer)

export const ticketSent = (answer: Answer<"createTicket">): NotificationContent => ({
  tone: "success",
  title: TICKET_SUCCESS_TITLE,
  message: detailOf(answer) ?? ""
})

export const ticketNotSent = (answer: Answer<"createTicket">): NotificationContent => ({
  tone: "error",
  title: TICKET_FAILURE_TITLE,
  message: ticketFailureMessage(answer)
})

export const firstInvalidField = (errors: ContactErrors): ContactField | undefined =>
  CONTACT_FIELDS.find((field) => errors[field] !== undefined)
