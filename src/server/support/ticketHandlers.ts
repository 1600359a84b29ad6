import type { Kysely } from "kysely"
import type { supportContract } from "../../domain/contract/support.ts"
import { ResultCode, TicketResult } from "../../domain/ResultCode.ts"
import { TICKETS_PER_HOUR, ticketStatusLabel } from "../../domain/Ticket.ts"
import { audit } from "../audit/auditFeature.ts"
import type { Tables } from "../db/schema.ts"
import { isStoredId } from "../db/storedId.ts"
import { invalidInput, tooManyRequests, waitText } from "../http/HttpFailure.ts"
import type { HandlersOf } from "../http/registerContract.ts"
import type { MailWaker } from "../http/serverFeature.ts"
import { type MailSite, mail } from "../mail/mailFeature.ts"
import { ticketReplyMail, ticketStatusMail } from "./supportMails.ts"
import {
  findTicketForMail,
  insertTicket,
  listOwnTickets,
  listTickets,
  lockAccountForTickets,
  markFirstResponse,
  ticketsOpenedSince,
  updateTicketStatus
} from "./ticketsRepo.ts"

const HOUR_MS = 60 * 60 * 1000

export const TICKET_SUBMITTED = "Ticket submitted"
export const TICKET_UPDATED = "Ticket updated"
export const TICKET_NOT_FOUND = "Ticket not found"
export const TICKET_UNCHANGED = "The ticket already has that status"
export const REPLY_QUEUED = "Email added to queue"
export const REPLY_NO_SUCH_TICKET = "No such ticket from that user"

/** Says how many tickets an hour one account may open, and when the next one will be taken. */
export const ticketLimitRefusal = (retryAfterSeconds: number) =>
  tooManyRequests(`You can open ${TICKETS_PER_HOUR} tickets an hour. Try again in ${waitText(retryAfterSeconds)}.`, retryAfterSeconds)

/** A ticket as the audit log names it: its id and its author. */
const ticketTarget = (ticket: { readonly id: number; readonly email: string }): string => `ticket ${ticket.id} (${ticket.email})`

export type TicketHandlers = HandlersOf<typeof supportContract>

export interface TicketHandlerDeps {
  readonly db: Kysely<Tables>
  readonly now: () => number
  /** the site the customer's mail speaks for, and where answers go (supportEmail), read when it is written */
  readonly site: () => Promise<MailSite & { readonly supportEmail: string }>
  readonly mailWorker: MailWaker
}

export function ticketHandlers({ db, now, site, mailWorker }: TicketHandlerDeps): TicketHandlers {
  const isoNow = () => new Date(now()).toISOString()
  return {
    async createTicket({ body, session }) {
      const at = now()
      await db.transaction().execute(async (trx) => {
        await lockAccountForTickets(trx, session.userId)
        const recent = await ticketsOpenedSince(trx, session.userId, new Date(at - HOUR_MS).toISOString())
        if (recent.count >= TICKETS_PER_HOUR) {
          // the earliest of the hour's tickets leaves the window first, and frees one place
          const freedAt = Date.parse(recent.earliest ?? new Date(at).toISOString()) + HOUR_MS
          throw ticketLimitRefusal(Math.max(1, Math.ceil((freedAt - at) / 1000)))
        }
        await insertTicket(trx, {
          user_id: session.userId,
          type: body.type,
          subject: body.subject,
          description: body.description,
          created_at: new Date(at).toISOString(),
          player_context: body.playerContext
        })
      })
      return { success: true, resultCode: ResultCode.SUCCESS, detail: TICKET_SUBMITTED }
    },

    async myTickets({ session }) {
      return { success: true, data: await listOwnTickets(db, session.userId) }
    },

    async tickets() {
      return { success: true, data: await listTickets(db) }
    },

    async updateTicket({ body, session, request }) {
      if (!Number.isInteger(body.ticketId)) throw invalidInput("ticketId: Expected an integer")
      const ticket = isStoredId(body.ticketId) ? await findTicketForMail(db, body.ticketId) : undefined
      if (ticket === undefined) return { success: false, resultCode: ResultCode.NOT_FOUND, detail: TICKET_NOT_FOUND }
      if (ticket.status === body.newStatus) return { success: true, resultCode: ResultCode.SUCCESS, detail: TICKET_UNCHANGED }
      const [from, at] = [await site(), isoNow()]
      await db.transaction().execute(async (trx) => {
        await updateTicketStatus(trx, ticket.id, body.newStatus, at)
        await markFirstResponse(trx, ticket.id, at)
        const status = ticketStatusLabel(body.newStatus)
        await mail.enqueue(trx, ticketStatusMail({ ...from, to: ticket.email, ticketSubject: ticket.subject, status }), new Date(at))
        await audit.record(
          trx,
          audit.staff(session, request),
          { action: "ticket.status", target: ticketTarget(ticket), detail: `${ticketStatusLabel(ticket.status)} → ${status}` },
          Date.parse(at)
        )
      })
      mailWorker.wake()
      return { success: true, resultCode: ResultCode.SUCCESS, detail: TICKET_UPDATED }
    },

    async replyToTicket({ body, session, request }) {
      if (!Number.isInteger(body.ticketId) || !Number.isInteger(body.userId)) throw invalidInput("ticketId, userId: Expected an integer")
      const ticket = isStoredId(body.ticketId) ? await findTicketForMail(db, body.ticketId) : undefined
      // the desk names the ticket's author too: a reply never goes to anyone else
      if (ticket === undefined || ticket.user_id !== body.userId) {
        return { success: false, resultCode: TicketResult.FAIL, detail: REPLY_NO_SUCH_TICKET }
      }
      const [from, at] = [await site(), isoNow()]
      await db.transaction().execute(async (trx) => {
        await markFirstResponse(trx, ticket.id, at)
        await mail.enqueue(
          trx,
          ticketReplyMail({ ...from, to: ticket.email, ticketSubject: ticket.subject, message: body.message }),
          new Date(at)
        )
        await audit.record(
          trx,
          audit.staff(session, request),
          { action: "ticket.reply", target: ticketTarget(ticket), detail: `mailed ${ticket.email} (${body.message.length} characters)` },
          Date.parse(at)
        )
      })
      mailWorker.wake()
      return { success: true, resultCode: TicketResult.SUCCESS, detail: REPLY_QUEUED }
    }
  }
}
