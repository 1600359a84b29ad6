import { type Kysely, sql } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { checkToken, consumeToken, hashToken, issueToken, revokeTokens } from "../../../src/server/account/oneTimeTokens.ts"
import { deleteExpiredOneTimeTokens } from "../../../src/server/account/oneTimeTokensRepo.ts"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import type { Tables } from "../../../src/server/db/schema.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const T0 = new Date("2025-03-01T10:00:00.000Z")
const later = (ms: number) => new Date(T0.getTime() + ms)
const MINUTE = 60_000
const HOUR = 60 * MINUTE

describe.each(dialects)("one-time tokens on $name", (dialect) => {
  let test: TestDatabase
  let db: Kysely<Tables>
  let userId: number

  beforeEach(async () => {
    test = await dialect.create()
    db = test.db.kysely
    userId = (
      await insertUser(db, {
        username: "ann",
        email: "ann@example.com",
        password_hash: "x",
        invite_token: "inv-ann"
      })
    ).id
  })
  afterEach(() => test.dispose())

  it("issues a 256-bit URL-safe token that checks as valid without being used up", async () => {
    const raw = await issueToken(db, { purpose: "verify", userId, now: T0 })
    expect(raw).toMatch(/^[A-Za-z0-9_-]{43}$/)

    const first = await checkToken(db, "verify", raw, later(MINUTE))
    expect(first).toEqual({
      status: "valid",
      token: {
        id: expect.any(Number),
        purpose: "verify",
        token_hash: hashToken(raw),
        user_id: userId,
        new_email: null,
        session_id: null,
        created_at: T0.toISOString(),
        expires_at: later(24 * HOUR).toISOString(),
        used_at: null
      }
    })
    expect(await checkToken(db, "verify", raw, later(MINUTE))).toEqual(first)
  })

  it("is single use: consumed once, then answers 'used' to checks and consumes", async () => {
    const raw = await issueToken(db, { purpose: "email-change", userId, newEmail: "ann@new.example", now: T0 })
    const consumed = await consumeToken(db, "email-change", raw, later(MINUTE))
    expect(consumed.status).toBe("valid")
    if (consumed.status !== "valid") return
    expect(consumed.token).toMatchObject({ user_id: userId, new_email: "ann@new.example", used_at: later(MINUTE).toISOString() })

    expect(await consumeToken(db, "email-change", raw, later(2 * MINUTE))).toEqual({ status: "used" })
    expect(await checkToken(db, "email-change", raw, later(2 * MINUTE))).toEqual({ status: "used" })
  })

  it("lets exactly one of many concurrent consumes win", async () => {
    const raw = await issueToken(db, { purpose: "reset", userId, now: T0 })
    const results = await Promise.all(Array.from({ length: 8 }, () => consumeToken(db, "reset", raw, later(MINUTE))))
    expect(results.filter((r) => r.status === "valid")).toHaveLength(1)
    expect(results.filter((r) => r.status === "used")).toHaveLength(7)
  })

  it("lets exactly one of two consumes in overlapping transactions win", async () => {
    const raw = await issueToken(db, { purpose: "verify", userId, now: T0 })
    // Both transactions are open before either consumes, so a read-then-write would let both
    // through. SQLite runs one transaction at a time on its connection, so there they simply queue.
    const bothOpen = dialect.name === "postgres" ? barrier(2) : async () => {}
    const attempt = () =>
      db.transaction().execute(async (trx) => {
        await sql`select 1`.execute(trx)
        await bothOpen()
        return consumeToken(trx, "verify", raw, later(MINUTE))
      })
    const results = await Promise.all([attempt(), attempt()])
    expect(results.map((r) => r.status).sort()).toEqual(["used", "valid"])
  })

  it("expires a reset token after 1 hour", async () => {
    const raw = await issueToken(db, { purpose: "reset", userId, now: T0 })
    expect((await checkToken(db, "reset", raw, later(HOUR - 1))).status).toBe("valid")
    expect(await checkToken(db, "reset", raw, later(HOUR))).toEqual({ status: "expired" })
    expect(await consumeToken(db, "reset", raw, later(HOUR))).toEqual({ status: "expired" })
  })

  it("expires verification and email-change tokens after 24 hours", async () => {
    const verify = await issueToken(db, { purpose: "verify", userId, now: T0 })
    const change = await issueToken(db, { purpose: "email-change", userId, newEmail: "a@b.example", now: T0 })
    for (const [purpose, raw] of [
      ["verify", verify],
      ["email-change", change]
    ] as const) {
      expect((await checkToken(db, purpose, raw, later(2 * HOUR))).status).toBe("valid")
      expect((await checkToken(db, purpose, raw, later(24 * HOUR - 1))).status).toBe("valid")
      expect(await consumeToken(db, purpose, raw, later(24 * HOUR))).toEqual({ status: "expired" })
    }
  })

  it("invalidates earlier unused reset and email-change tokens, but not verification tokens", async () => {
    const oldReset = await issueToken(db, { purpose: "reset", userId, now: T0 })
    const newReset = await issueToken(db, { purpose: "reset", userId, now: later(MINUTE) })
    expect(await checkToken(db, "reset", oldReset, later(2 * MINUTE))).toEqual({ status: "not-found" })
    expect((await checkToken(db, "reset", newReset, later(2 * MINUTE))).status).toBe("valid")

    const oldChange = await issueToken(db, { purpose: "email-change", userId, newEmail: "one@x.example", now: T0 })
    const newChange = await issueToken(db, { purpose: "email-change", userId, newEmail: "two@x.example", now: T0 })
    expect(await checkToken(db, "email-change", oldChange, T0)).toEqual({ status: "not-found" })
    expect(await checkToken(db, "email-change", newChange, T0)).toMatchObject({ token: { new_email: "two@x.example" } })
    // Another purpose is untouched.
    expect((await checkToken(db, "reset", newReset, T0)).status).toBe("valid")

    const firstVerify = await issueToken(db, { purpose: "verify", userId, now: T0 })
    const secondVerify = await issueToken(db, { purpose: "verify", userId, now: T0 })
    expect((await checkToken(db, "verify", firstVerify, T0)).status).toBe("valid")
    expect((await checkToken(db, "verify", secondVerify, T0)).status).toBe("valid")
  })

  it("keeps a used token 'used' when a newer one of its purpose is issued", async () => {
    const used = await issueToken(db, { purpose: "reset", userId, now: T0 })
    await consumeToken(db, "reset", used, T0)
    await issueToken(db, { purpose: "reset", userId, now: T0 })
    expect(await checkToken(db, "reset", used, T0)).toEqual({ status: "used" })
  })

  it("answers 'not-found' for unknown tokens, another purpose's token and revoked tokens", async () => {
    expect(await checkToken(db, "verify", "no-such-token", T0)).toEqual({ status: "not-found" })
    expect(await consumeToken(db, "verify", "", T0)).toEqual({ status: "not-found" })
    const reset = await issueToken(db, { purpose: "reset", userId, now: T0 })
    expect(await consumeToken(db, "verify", reset, T0)).toEqual({ status: "not-found" })
    expect(await revokeTokens(db, userId, "reset")).toBe(1)
    expect(await consumeToken(db, "reset", reset, T0)).toEqual({ status: "not-found" })
  })

  it("stores only the SHA-256 hash, never the raw token", async () => {
    const raw = await issueToken(db, { purpose: "verify", userId, now: T0 })
    const rows = await db.selectFrom("one_time_tokens").selectAll().execute()
    expect(rows).toHaveLength(1)
    expect(rows[0]?.token_hash).toBe(hashToken(raw))
    expect(rows[0]?.token_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(rows)).not.toContain(raw)
  })

  it("rolls back with the caller's transaction and goes with its user", async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await issueToken(trx, { purpose: "verify", userId, now: T0 })
        throw new Error("the change that needed the token failed")
      })
    ).rejects.toThrow("failed")
    expect(await db.selectFrom("one_time_tokens").selectAll().execute()).toEqual([])

    await issueToken(db, { purpose: "verify", userId, now: T0 })
    await db.deleteFrom("users").where("id", "=", userId).execute()
    expect(await db.selectFrom("one_time_tokens").selectAll().execute()).toEqual([])
  })

  it("drops expired tokens in housekeeping", async () => {
    await issueToken(db, { purpose: "reset", userId, now: T0 })
    const verify = await issueToken(db, { purpose: "verify", userId, now: T0 })
    expect(await deleteExpiredOneTimeTokens(db, later(2 * HOUR).toISOString())).toBe(1)
    expect((await checkToken(db, "verify", verify, later(2 * HOUR))).status).toBe("valid")
  })
})

/** Resolves for everyone once `parties` callers are waiting. */
function barrier(parties: number): () => Promise<void> {
  let waiting = 0
  let release!: () => void
  const open = new Promise<void>((resolve) => {
    release = resolve
  })
  return () => {
    waiting += 1
    if (waiting === parties) release()
    return open
  }
}
