import { type Kysely, sql } from "kysely"
import { decodeWith } from "../../domain/decode.ts"
import { PlayerContext, TicketStatus, type TicketCategory } from "../../domain/Ticket.ts"
import type { Tables, TicketRow, Timestamp } from "../db/schema.ts"

export interface NewTicketInput {
  user_id: number
  /** Category: 1 bug report, 2 billing, 3 stream service, 4 subscription, 5 other. */
  type: TicketCategory
  subject: string
  description: string
  created_at?: Timestamp
}

/** New tickets start open (status 1). */
export async function insertTicket(db: Kysely<Tables>, input: NewTicketInput): Promise<TicketRow> {
  return db.insertInto("tickets")
    .values({
      user_id: input.user_id,
      type: input.type,
      subject: input.subject,
      description: input.description,
      created_at: input.created_at ?? new Date().toISOString(),
      resolved_at: null
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export interface DeskTicket {
  id: number
  user__id: number
  user__email: string
  type: TicketCategory
  subject: string
  description: string
  status: TicketStatus
  created_at: string
  resolved_at: string | null
  player_context: PlayerContext | null
}

const decodeContext = decodeWith(PlayerContext)

/** A stored player context; null when there is none, or it no longer reads as one. */
export function playerContextOf(json: string | null): PlayerContext | null {
  if (json === null) return null
  try {
    const decoded = decodeContext(JSON.parse(json))
    return decoded.ok ? decoded.value : null
  } catch {
    return null
  }
}

/** Every ticket with its author, newest first, as the staff desk lists them. */
export async function listTickets(db: Kysely<Tables>): Promise<DeskTicket[]> {
  const rows = await db.selectFrom("tickets as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .select([
      "t.id", "t.user_id as user__id", "u.email as user__email", "t.type", "t.subject", "t.description",
      "t.status", "t.created_at", "t.resolved_at", "t.player_context"
    ])
    .orderBy("t.created_at", "desc")
    .orderBy("t.id", "desc")
    .execute()
  return rows.map((row) => ({ ...row, player_context: playerContextOf(row.player_context) }))
}

/**
 * Resolving keeps the first resolution time if the ticket already had one; moving a ticket out
 * of resolved clears it. False when there is no such ticket.
 */
export async function updateTicketStatus(
  db: Kysely<Tables>,
  ticketId: number,
  status: TicketStatus,
  now: string
): Promise<boolean> {
  const resolvedAt = status === TicketStatus.RESOLVED ? sql<string>`coalesce(resolved_at, ${now})` : sql<null>`null`
  const result = await db.updateTable("tickets")
    .set({ status, resolved_at: resolvedAt })
    .where("id", "=", ticketId)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}
