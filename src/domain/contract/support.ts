import * as Schema from "effect/Schema"
import { NewTicket, OwnTicket, Ticket, TicketStatusSchema } from "../Ticket.ts"
import { ReplyMessage } from "../TicketDesk.ts"
import { CodedResponse, dataResponse, endpoint } from "./endpoint.ts"

export const OwnTicketsResponse = dataResponse(Schema.Array(OwnTicket))
export const TicketsResponse = dataResponse(Schema.Array(Ticket))
export const UpdateTicketRequest = Schema.Struct({ ticketId: Schema.Number, newStatus: TicketStatusSchema })
export const ReplyRequest = Schema.Struct({ userId: Schema.Number, ticketId: Schema.Number, message: ReplyMessage })

/** Tickets: opened by viewers, worked by staff at the desk. */
export const supportContract = {
  createTicket: endpoint({
    method: "POST",
    path: "/api/support/ticket",
    body: NewTicket,
    response: CodedResponse,
    access: "user",
    summary: "Open a support ticket"
  }),
  myTickets: endpoint({
    method: "GET",
    path: "/api/support/tickets",
    response: OwnTicketsResponse,
    access: "user",
    summary: "The signed-in user's own tickets, newest first"
  }),
  tickets: endpoint({
    method: "GET",
    path: "/api/support/adminsuppottickets",
    response: TicketsResponse,
    access: "staff",
    summary: "Every support ticket"
  }),
  updateTicket: endpoint({
    method: "POST",
    path: "/api/support/updateSupportTicket",
    body: UpdateTicketRequest,
    response: CodedResponse,
    access: "staff",
    summary: "Set a ticket's status"
  }),
  replyToTicket: endpoint({
    method: "POST",
    path: "/api/emailservice/emailUserNotification",
    body: ReplyRequest,
    response: CodedResponse,
    access: "staff",
    summary: "Mail a reply to a ticket's author"
  })
} as const
