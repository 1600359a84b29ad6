import { createHash, randomBytes } from "node:crypto"
import type { Kysely } from "kysely"
import { inTransaction } from "../db/database.ts"
import type { OneTimeTokenRow, Tables, TokenPurpose } from "../db/schema.ts"
import { deleteUnusedOneTimeTokens, findOneTimeToken, insertOneTimeToken, markOneTimeTokenUsed } from "./oneTimeTokensRepo.ts"

// Tokens that go out by mail (verify the address, reset the password, confirm a new address).
// Only a hash is stored, so a leaked database or backup cannot be turned into working links.

const HOUR = 60 * 60 * 1000

export const TOKEN_LIFETIME_MS: Readonly<Record<TokenPurpose, number>> = {
  verify: 24 * HOUR,
  // Short: a reset link hands over the account to whoever holds the mailbox.
  reset: 1 * HOUR,
  "email-change": 24 * HOUR
}

// A user acts on the latest reset or email-change mail; an older one still lying in the mailbox
// would otherwise stay a way in (reset) or apply an address they changed their mind about.
// Verification links are all equivalent, so a resent mail does not break the first one.
const SUPERSEDES_EARLIER: ReadonlySet<TokenPurpose> = new Set(["reset", "email-change"])

export type TokenCheck = { status: "valid"; token: OneTimeTokenRow } | { status: "not-found" } | { status: "used" } | { status: "expired" }

export interface IssueTokenInput {
  purpose: TokenPurpose
  userId: number
  /** The address an email-change token will switch the account to. */
  newEmail?: string
  /** The session an email change was asked from: its confirmation keeps it signed in. */
  sessionId?: number
  now?: Date
}

export function hashToken(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex")
}

/**
 * Stores a new token and returns the raw value, the only time it exists outside the caller's
 * mail. Pass the caller's transaction as `db` so the token and its mail commit together.
 */
export async function issueToken(db: Kysely<Tables>, input: IssueTokenInput): Promise<string> {
  const now = input.now ?? new Date()
  const raw = randomBytes(32).toString("base64url")
  await inTransaction(db, async (trx) => {
    if (SUPERSEDES_EARLIER.has(input.purpose)) {
      await deleteUnusedOneTimeTokens(trx, input.userId, input.purpose)
    }
    await insertOneTimeToken(trx, {
      purpose: input.purpose,
      token_hash: hashToken(raw),
      user_id: input.userId,
      new_email: input.newEmail ?? null,
      session_id: input.sessionId ?? null,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + TOKEN_LIFETIME_MS[input.purpose]).toISOString()
    })
  })
  return raw
}

/** What a link would do right now, without using it up (to show a form before acting). */
export async function checkToken(db: Kysely<Tables>, purpose: TokenPurpose, raw: string, now: Date = new Date()): Promise<TokenCheck> {
  return classify(await findOneTimeToken(db, purpose, hashToken(raw)), now.toISOString())
}

/**
 * Uses the token up. Of any number of concurrent calls with one token exactly one gets `valid`.
 * Pass the caller's transaction as `db` so the token is spent only if the change it authorises
 * commits too.
 */
export async function consumeToken(db: Kysely<Tables>, purpose: TokenPurpose, raw: string, now: Date = new Date()): Promise<TokenCheck> {
  const at = now.toISOString()
  const hash = hashToken(raw)
  const won = await markOneTimeTokenUsed(db, purpose, hash, at)
  if (won !== undefined) return { status: "valid", token: won }
  const seen = classify(await findOneTimeToken(db, purpose, hash), at)
  // Unused and unexpired yet not ours to take: the row changed under us, so it is spent or gone.
  return seen.status === "valid" ? { status: "used" } : seen
}

/** Makes a user's outstanding tokens of one purpose worthless, e.g. once the password changed. */
export async function revokeTokens(db: Kysely<Tables>, userId: number, purpose: TokenPurpose): Promise<number> {
  return deleteUnusedOneTimeTokens(db, userId, purpose)
}

function classify(row: OneTimeTokenRow | undefined, now: string): TokenCheck {
  if (row === undefined) return { status: "not-found" }
  if (row.used_at !== null) return { status: "used" }
  if (row.expires_at <= now) return { status: "expired" }
  return { status: "valid", token: row }
}
