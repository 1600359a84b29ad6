import { type Kysely, sql } from "kysely"
import { decodeWith } from "../../domain/decode.ts"
import { type OwnTicket, PlayerContext, type Ticket, type TicketCategory, TicketStatus } from "../../domain/Ticket.ts"
import type { Tables, TicketRow, Timestamp } from "../db/schema.ts"

export interface NewTicketInput {
  user_id: number
  /** Category: 1 bug report, 2 billing, 3 stream service, 4 subscription, 5 other. */
  type: TicketCategory
  subject: string
  description: string
  created_at?: Timestamp
  /** what the viewer attached from a player's error box, if anything */
  player_context?: PlayerContext | undefined
}

/** New tickets start open (status 1); subject and description are stored exactly as typed. */
export async function insertTicket(db: Kysely<Tables>, input: NewTicketInput): Promise<TicketRow> {
  return db
    .insertInto("tickets")
    .values({
      user_id: input.user_id,
      type: input.type,
      subject: input.subject,
      description: input.description,
      created_at: input.created_at ?? new Date().toISOString(),
      resolved_at: null,
      player_context: input.player_context === undefined ? null : JSON.stringify(input.player_context)
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** A ticket as the staff desk lists it: the contract's `Ticket`, as sent. */
export type DeskTicket = typeof Ticket.Encoded

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
  const rows = await db
    .selectFrom("tickets as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .select([
      "t.id",
      "t.user_id as user__id",
      "u.email as user__email",
      "t.type",
      "t.subject",
      "t.description",
      "t.status",
      "t.created_at",
      "t.resolved_at",
      "t.first_response_at",
      "t.player_context"
    ])
    .orderBy("t.created_at", "desc")
    .orderBy("t.id", "desc")
    .execute()
  return rows.map((row) => ({ ...row, player_context: playerContextOf(row.player_context) }))
}

/** A ticket as its author lists it: the contract's `OwnTicket`, as sent. */
export type OwnTicketRow = typeof OwnTicket.Encoded

/** A ticket with what its author's mail needs. */
export async function findTicketForMail(db: Kysely<Tables>, ticketId: number) {
  return db
    .selectFrom("tickets as t")
    .innerJoin("users as u", "u.id", "t.user_id")
    .select(["t.id", "t.user_id", "u.email", "t.subject", "t.status"])
    .where("t.id", "=", ticketId)
    .executeTakeFirst()
}

/** Staff answered a ticket (a reply or a status change); only the first answer is kept. */
export async function markFirstResponse(db: Kysely<Tables>, ticketId: number, at: string): Promise<void> {
  await db.updateTable("tickets").set({ first_response_at: at }).where("id", "=", ticketId).where("first_response_at", "is", null).execute()
}

/** One account's tickets, newest first. */
export async function listOwnTickets(db: Kysely<Tables>, userId: number): Promise<OwnTicketRow[]> {
  const rows = await db
    .selectFrom("tickets")
    .select(["id", "type", "subject", "description", "status", "created_at", "resolved_at", "player_context"])
    .where("user_id", "=", userId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .execute()
  return rows.map((row) => ({ ...row, player_context: playerContextOf(row.player_context) }))
}

/** How many tickets an account opened after `since`, and when the earliest of those was. */
export async function ticketsOpenedSince(
  db: Kysely<Tables>,
  userId: number,
  since: Timestamp
): Promise<{ count: number; earliest: Timestamp | undefined }> {
  const row = await db
    .selectFrom("tickets")
    .select((eb) => [eb.fn.countAll<number>().as("count"), eb.fn.min("created_at").as("earliest")])
    .where("user_id", "=", userId)
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow()
  return { count: Number(row.count), earliest: row.earliest ?? undefined }
}

/**
 * Holds the account's row until the transaction ends, so two tickets sent at once are counted one
 * after the other (PostgreSQL would otherwise let both see the same count). The update changes
 * nothing; SQLite runs one transaction at a time anyway.
 */
export async function lockAccountForTickets(trx: Kysely<Tables>, userId: number): Promise<void> {
  await trx
    .updateTable("users")
    .set((eb) => ({ id: eb.ref("id") }))
    .where("id", "=", userId)
    .execute()
}

/**
 * Resolving keeps the first resolution time if the ticket already had one; moving a ticket out
 * of resolved clears it. False when there is no such ticket.
 */
export async function updateTicketStatus(db: Kysely<Tables>, ticketId: number, status: TicketStatus, now: string): Promise<boolean> {
  const resolvedAt = status === TicketStatus.RESOLVED ? sql<string>`coalesce(resolved_at, ${now})` : sql<null>`null`
  const result = await db.updateTable("tickets").set({ status, resolved_at: resolvedAt }).where("id", "=", ticketId).executeTakeFirst()
  return result.numUpdatedRows > 0n
}
