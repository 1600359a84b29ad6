import type { Kysely } from "kysely"
import { hotQuery } from "../db/hotQuery.ts"
import type { SessionRow, Tables, Timestamp } from "../db/schema.ts"
import { sessionsChanged } from "./sessionCache.ts"

export interface NewSessionInput {
  user_id: number
  token_hash: string
  expires_at: Timestamp
  is_mobile?: boolean
  user_agent?: string | null
  ip?: string | null
  created_at?: Timestamp
}

/** A live session with the account it belongs to, as an authenticated request needs it. */
export interface SessionWithUser {
  session_id: number
  token_hash: string
  is_mobile: boolean
  user_agent: string | null
  ip: string | null
  created_at: Timestamp
  last_seen_at: Timestamp
  expires_at: Timestamp
  user_id: number
  email: string
  username: string
  is_staff: boolean
  is_active: boolean
}

export async function insertSession(db: Kysely<Tables>, input: NewSessionInput): Promise<SessionRow> {
  const now = input.created_at ?? new Date().toISOString()
  return db
    .insertInto("sessions")
    .values({
      user_id: input.user_id,
      token_hash: input.token_hash,
      is_mobile: input.is_mobile ?? false,
      user_agent: input.user_agent ?? null,
      ip: input.ip ?? null,
      created_at: now,
      last_seen_at: now,
      expires_at: input.expires_at
    })
    .returningAll()
    .executeTakeFirstOrThrow()
}

/**
 * Expired sessions are treated as absent. Inactive users are still returned (with `is_active`)
 * so the caller decides what a disabled account may do.
 */
const liveSessionByTokenHash = hotQuery((db, tokenHash: string, now: string) =>
  db
    .selectFrom("sessions as s")
    .innerJoin("users as u", "u.id", "s.user_id")
    .select([
      "s.id as session_id",
      "s.token_hash",
      "s.is_mobile",
      "s.user_agent",
      "s.ip",
      "s.created_at",
      "s.last_seen_at",
      "s.expires_at",
      "u.id as user_id",
      "u.email",
      "u.username",
      "u.is_staff",
      "u.is_active"
    ])
    .where("s.token_hash", "=", tokenHash)
    .where("s.expires_at", ">", now)
)

export async function findSessionByTokenHash(
  db: Kysely<Tables>,
  tokenHash: string,
  now: Timestamp = new Date().toISOString()
): Promise<SessionWithUser | undefined> {
  return (await liveSessionByTokenHash(db, tokenHash, now))[0]
}

export interface SessionTouch {
  ip?: string | null
  last_seen_at?: Timestamp
  /** Pass to slide the expiry forward on activity. */
  expires_at?: Timestamp
}

/** Records activity on a session; returns false when the session is gone. */
export async function touchSession(db: Kysely<Tables>, sessionId: number, touch: SessionTouch = {}): Promise<boolean> {
  const result = await db
    .updateTable("sessions")
    .set({
      last_seen_at: touch.last_seen_at ?? new Date().toISOString(),
      ...(touch.ip !== undefined ? { ip: touch.ip } : {}),
      ...(touch.expires_at !== undefined ? { expires_at: touch.expires_at } : {})
    })
    .where("id", "=", sessionId)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Returns false when there was no such session (already logged out). */
export async function deleteSessionByTokenHash(db: Kysely<Tables>, tokenHash: string): Promise<boolean> {
  const result = await db.deleteFrom("sessions").where("token_hash", "=", tokenHash).executeTakeFirst()
  sessionsChanged()
  return result.numDeletedRows > 0n
}

/** Logs a user out everywhere, optionally keeping the session making the request. */
export async function deleteSessionsOfUser(db: Kysely<Tables>, userId: number, exceptTokenHash?: string): Promise<number> {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId)
  if (exceptTokenHash !== undefined) query = query.where("token_hash", "!=", exceptTokenHash)
  const result = await query.executeTakeFirst()
  sessionsChanged()
  return Number(result.numDeletedRows)
}

/** Ends every session of a user but those with the ids in `keep`; answers how many ended. */
export async function deleteSessionsOfUserExcept(db: Kysely<Tables>, userId: number, keep: ReadonlyArray<number>): Promise<number> {
  let query = db.deleteFrom("sessions").where("user_id", "=", userId)
  if (keep.length > 0) query = query.where("id", "not in", keep)
  const result = await query.executeTakeFirst()
  sessionsChanged()
  return Number(result.numDeletedRows)
}

/** Housekeeping: drops sessions that expired before `now`. */
export async function deleteExpiredSessions(db: Kysely<Tables>, now: Timestamp = new Date().toISOString()): Promise<number> {
  const result = await db.deleteFrom("sessions").where("expires_at", "<=", now).executeTakeFirst()
  sessionsChanged()
  return Number(result.numDeletedRows)
}
