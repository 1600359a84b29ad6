import type { Kysely } from "kysely"
import { ResultCode } from "../../domain/ResultCode.ts"
import type { Tables } from "../db/schema.ts"
import { invalidInput } from "../http/HttpFailure.ts"
import type { Handler } from "../http/registerContract.ts"
import { insertTicket, listTickets, updateTicketStatus } from "./ticketsRepo.ts"

const MAX_ID = 2 ** 31 - 1

export const TICKET_SUBMITTED = "Ticket submitted"
export const TICKET_UPDATED = "Ticket updated"
export const TICKET_NOT_FOUND = "Ticket not found"

export interface TicketHandlers {
  createTicket: Handler<"createTicket">
  tickets: Handler<"tickets">
  updateTicket: Handler<"updateTicket">
}

export function ticketHandlers(db: Kysely<Tables>, now: () => number): TicketHandlers {
  const isoNow = () => new Date(now()).toISOString()
  return {
    async createTicket({ body, session }) {
      await insertTicket(db, {
        user_id: session.userId,
        type: body.type,
        subject: body.subject,
        description: body.description,
        created_at: isoNow()
      })
      return { success: true, resultCode: ResultCode.SUCCESS, detail: TICKET_SUBMITTED }
    },

    async tickets() {
      return { success: true, data: await listTickets(db) }
    },

    async updateTicket({ body }) {
      if (!Number.isInteger(body.ticketId)) throw invalidInput("ticketId: Expected an integer")
      // Ids are 32-bit in the database; PostgreSQL would reject a larger one outright.
      const updated = body.ticketId > 0 && body.ticketId <= MAX_ID &&
        await updateTicketStatus(db, body.ticketId, body.newStatus, isoNow())
      return updated
        ? { success: true, resultCode: ResultCode.SUCCESS, detail: TICKET_UPDATED }
        : { success: false, resultCode: ResultCode.NOT_FOUND, detail: TICKET_NOT_FOUND }
    }
  }
}
