import type { Kysely } from "kysely"
import type { AnnouncementRow, Tables, Timestamp } from "../db/schema.ts"

export interface NewAnnouncementInput {
  /** Identifies the announcement to browsers, which remember the last one they dismissed. */
  token: string
  title: string
  text: string
  created_at?: Timestamp
}

/** The newest announcement; the id breaks ties between equal timestamps. */
export async function latestAnnouncement(db: Kysely<Tables>): Promise<AnnouncementRow | undefined> {
  return db.selectFrom("announcements").selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(1).executeTakeFirst()
}

/** Throws a unique violation (see `isUniqueViolation`) when the token is already used. */
export async function insertAnnouncement(db: Kysely<Tables>, input: NewAnnouncementInput): Promise<AnnouncementRow> {
  return db
    .insertInto("announcements")
    .values({
      token: input.token,
      title: input.title,
      text: input.text,
      created_at: input.created_at ?? new Date().toISOString()
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}
