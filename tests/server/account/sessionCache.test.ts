import { afterEach, beforeEach, describe, expect, it } from "vitest"
import {
  createSessionCache,
  sessionsChanged,
  sessionsEpoch,
  TELEMETRY_SESSION_MAX_AGE_MS
} from "../../../src/server/account/sessionCache.ts"
import { createSession, hashToken, resolveSession } from "../../../src/server/account/sessions.ts"
import { deleteSessionByTokenHash, findSessionByTokenHash } from "../../../src/server/account/sessionsRepo.ts"
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

  it("keeps no row read before a sign-out in this process, however late the read comes back", async () => {
    const cache = createSessionCache({ ttlMs: 1000 })
    const row = await findSessionByTokenHash(test.db.kysely, hashToken(token), new Date(T0).toISOString())
    if (row === undefined) throw new Error("no session")
    const epochAtRead = sessionsEpoch()
    sessionsChanged()
    cache.set(hashToken(token), row, T0, epochAtRead)
    expect(cache.get(hashToken(token), T0 + 1, TELEMETRY_SESSION_MAX_AGE_MS)).toBeUndefined()
  })

  it("ages a cached session from its read, not from a later touch, and drops it when the touch finds it gone", async () => {
    const cache = createSessionCache({ ttlMs: 1000 })
    const telemetry = (at: number, ip: string) => resolveSession(test.db.kysely, token, ip, at, cache, TELEMETRY_SESSION_MAX_AGE_MS)
    expect(await telemetry(T0, "10.0.0.1")).toBeDefined()
    // a new address touches the session, which still exists
    expect(await telemetry(T0 + 20_000, "10.0.0.2")).toBeDefined()
    // ended behind the process's back, as another instance or the CLI would
    await test.db.kysely.deleteFrom("sessions").execute()
    expect(await telemetry(T0 + 30_000, "10.0.0.2")).toBeUndefined()

    const again = await createSession(test.db.kysely, userId, { isMobile: false, userAgent: "test", ip: "10.0.0.1" }, T0)
    expect(await resolveSession(test.db.kysely, again, "10.0.0.1", T0, cache)).toBeDefined()
    await test.db.kysely.deleteFrom("sessions").execute()
    // cached, but the touch a new address needs finds no row
    expect(await resolveSession(test.db.kysely, again, "10.0.0.3", T0 + 500, cache)).toBeUndefined()
    expect(await resolveSession(test.db.kysely, again, "10.0.0.3", T0 + 600, cache)).toBeUndefined()
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
    const seen = async () => await test.db.kysely.selectFrom("sessions").select(["ip", "last_seen_at"]).executeTakeFirstOrThrow()
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
