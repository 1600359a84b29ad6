import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { createSessionCache, TELEMETRY_SESSION_MAX_AGE_MS } from "../../../src/server/account/sessionCache.ts"
import { createSession, hashToken, resolveSession } from "../../../src/server/account/sessions.ts"
import { deleteSessionByTokenHash } from "../../../src/server/account/sessionsRepo.ts"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const T0 = Date.UTC(2026, 0, 15, 12)

describe.each(dialects)("cached sessions on $name", (dialect) => {
  let test: TestDatabase
  let token: string
  let userId: number
  beforeEach(async () => {
    test = await dialect.create()
    userId = (await insertUser(test.db.kysely, { username: "v", email: "v@example.com", password_hash: "x", invite_token: "v" })).id
    token = await createSession(test.db.kysely, userId, { isMobile: false, userAgent: "test", ip: "10.0.0.1" }, T0)
  })
  afterEach(() => test.dispose())

  const resolve = (cache: ReturnType<typeof createSessionCache>, at: number, ip = "10.0.0.1") =>
    resolveSession(test.db.kysely, token, ip, at, cache)

  it("answers from memory for a second, then asks the database again", async () => {
    const cache = createSessionCache({ ttlMs: 1000 })
    expect((await resolve(cache, T0))?.userId).toBe(userId)
    // removed behind the process's back, as another instance or the CLI would
    await test.db.kysely.deleteFrom("sessions").execute()
    expect((await resolve(cache, T0 + 999))?.userId).toBe(userId)
    expect(await resolve(cache, T0 + 1000)).toBeUndefined()
  })

  it("lets telemetry use a session read up to 30 s earlier, while requests still ask again after a second", async () => {
    const cache = createSessionCache({ ttlMs: 1000 })
    const telemetry = (at: number) => resolveSession(test.db.kysely, token, "10.0.0.1", at, cache, TELEMETRY_SESSION_MAX_AGE_MS)
    expect((await resolve(cache, T0))?.userId).toBe(userId)
    await test.db.kysely.deleteFrom("sessions").execute()
    expect((await telemetry(T0 + 29_999))?.userId).toBe(userId)
    expect(await resolve(cache, T0 + 1000)).toBeUndefined()
    expect(await telemetry(T0 + 30_000)).toBeUndefined()
  })

  it("ends telemetry's allowance too when this process ends the session", async () => {
    const cache = createSessionCache({ ttlMs: 1000 })
    expect(await resolve(cache, T0)).toBeDefined()
    await deleteSessionByTokenHash(test.db.kysely, hashToken(token))
    expect(await resolveSession(test.db.kysely, token, "10.0.0.1", T0 + 1, cache, TELEMETRY_SESSION_MAX_AGE_MS)).toBeUndefined()
  })

  it("forgets everything at once when this process ends a session or changes an account", async () => {
    const cache = createSessionCache({ ttlMs: 60_000 })
    expect(await resolve(cache, T0)).toBeDefined()
    await deleteSessionByTokenHash(test.db.kysely, hashToken(token))
    expect(await resolve(cache, T0 + 1)).toBeUndefined()
  })

  it("refuses an expired session even while it is cached", async () => {
    const cache = createSessionCache({ ttlMs: Number.MAX_SAFE_INTEGER })
    expect(await resolve(cache, T0)).toBeDefined()
    expect(await resolve(cache, T0 + 31 * 24 * 60 * 60 * 1000)).toBeUndefined()
  })

  it("touches the session when the address changes, and only every five minutes otherwise", async () => {
    const cache = createSessionCache({ ttlMs: 60 * 60 * 1000 })
    const seen = async () => (await test.db.kysely.selectFrom("sessions").select(["ip", "last_seen_at"]).executeTakeFirstOrThrow())
    await resolve(cache, T0 + 60_000)
    expect(await seen()).toEqual({ ip: "10.0.0.1", last_seen_at: new Date(T0).toISOString() })
    await resolve(cache, T0 + 120_000, "10.0.0.2")
    expect(await seen()).toEqual({ ip: "10.0.0.2", last_seen_at: new Date(T0 + 120_000).toISOString() })
    await resolve(cache, T0 + 180_000, "10.0.0.2")
    expect((await seen()).last_seen_at).toBe(new Date(T0 + 120_000).toISOString())
    await resolve(cache, T0 + 120_000 + 5 * 60_000, "10.0.0.2")
    expect((await seen()).last_seen_at).toBe(new Date(T0 + 120_000 + 5 * 60_000).toISOString())
  })
})
