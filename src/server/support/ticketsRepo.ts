import type { Kysely } from "kysely"
import type { Tables, TicketRow, Timestamp } from "../db/schema.ts"

export interface NewTicketInput {
  user_id: number
  /** Category: 1 bug report, 2 billing, 3 stream service, 4 subscription, 5 other. */
  type: number
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
