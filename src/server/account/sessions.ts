import { hash, randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import type { Tables } from "../db/schema.ts"
import type { Session } from "../http/session.ts"
import { type SessionCache, sessionsEpoch } from "./sessionCache.ts"
import { findSessionByTokenHash, insertSession, touchSession } from "./sessionsRepo.ts"

export const SESSION_DAYS = 30
const SESSION_MS = SESSION_DAYS * 24 * 60 * 60 * 1000
// Writing on every request would turn each read into a write (a player heartbeats every minute);
// five minutes' precision is plenty for "last seen" and for sliding a 30-day expiry.
export const TOUCH_EVERY_MS = 5 * 60 * 1000
/** However often it is used, a session ends this long after its sign-in (SESSION_MAX_DAYS). */
export const DEFAULT_SESSION_MAX_DAYS = 90
const DAY_MS = 24 * 60 * 60 * 1000

/** A session's expiry: a month after its last use, and never past its absolute lifetime. */
const expiryOf = (now: number, createdAt: number, maxDays: number): string =>
  new Date(Math.min(now + SESSION_MS, createdAt + maxDays * DAY_MS)).toISOString()

/** Only this hash is stored: a leaked database does not yield usable tokens. (Every request hashes its token: one call, no hash object.) */
export const hashToken = (token: string): string => hash("sha256", token, "hex")

export interface NewSessionDevice {
  readonly isMobile: boolean
  readonly userAgent: string | undefined
  readonly ip: string
}

/** Returns the token, the only time it exists outside the client. */
export async function createSession(
  db: Kysely<Tables>,
  userId: number,
  device: NewSessionDevice,
  now: number,
  maxDays: number = DEFAULT_SESSION_MAX_DAYS
): Promise<string> {
  const token = randomBytes(32).toString("base64url")
  await insertSession(db, {
    user_id: userId,
    token_hash: hashToken(token),
    is_mobile: device.isMobile,
    user_agent: device.userAgent?.slice(0, 512) ?? null,
    ip: device.ip,
    created_at: new Date(now).toISOString(),
    expires_at: expiryOf(now, now, maxDays)
  })
  return token
}

// Tokens are 43 base64url characters; anything far off is rejected without a query.
const PLAUSIBLE_TOKEN = /^[A-Za-z0-9_-]{16,128}$/

/**
 * The live session a `Token` header names, sliding its expiry; undefined when there is none. A
 * cached read up to `maxAgeMs` old stands (the cache's own lifetime when not given).
 */
export async function resolveSession(
  db: Kysely<Tables>,
  token: string | undefined,
  ip: string,
  now: number,
  cache?: SessionCache,
  maxAgeMs?: number,
  maxDays: number = DEFAULT_SESSION_MAX_DAYS
): Promise<Session | undefined> {
  if (token === undefined || !PLAUSIBLE_TOKEN.test(token)) return undefined
  const tokenHash = hashToken(token)
  const nowIso = new Date(now).toISOString()
  let row = cache?.get(tokenHash, now, maxAgeMs)
  if (row === undefined || row.expires_at <= nowIso) {
    // a sign-out while the read is under way must not leave its row cached
    const epochAtRead = sessionsEpoch()
    row = await findSessionByTokenHash(db, tokenHash, nowIso)
    if (row === undefined) return undefined
    cache?.set(tokenHash, row, now, epochAtRead)
  }
  if (!row.is_active) return undefined
  const createdAt = Date.parse(row.created_at)
  // past its absolute lifetime (a shorter SESSION_MAX_DAYS than when it began, too): the next use signs in again
  if (now >= createdAt + maxDays * DAY_MS) return undefined
  if (now - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS || row.ip !== ip) {
    const touch = { ip, last_seen_at: nowIso, expires_at: expiryOf(now, createdAt, maxDays) }
    if (!(await touchSession(db, row.session_id, touch))) {
      // ended elsewhere (another instance, the CLI) since it was cached
      cache?.forget(tokenHash)
      return undefined
    }
    // the cached row is as old as its read, not as this write: an address that keeps changing
    // does not keep a session alive in the cache
    cache?.update(tokenHash, { ...row, ...touch })
  }
  return {
    sessionId: row.session_id,
    tokenHash: row.token_hash,
    userId: row.user_id,
    email: row.email,
    username: row.username,
    isStaff: row.is_staff
  }
}
