import { fileURLToPath } from "node:url"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { DEFAULT_SITE_SETTINGS } from "../../src/domain/SiteSettings.ts"
import { hashPassword } from "../../src/server/account/passwords.ts"
import { STAFF_EMAIL } from "../../src/server/account/seedStaff.ts"
import { insertUser, listUsers } from "../../src/server/account/usersRepo.ts"
import { buildApp } from "../../src/server/app.ts"
import { loadConfig } from "../../src/server/config.ts"
import { listOriginChannels } from "../../src/server/origin/originRoutes.ts"
import { seed } from "../../src/server/seed.ts"
import { getSettings } from "../../src/server/shell/settingsRepo.ts"
import { deleteStream, listStreams } from "../../src/server/streams/streamsRepo.ts"
import { dialects, type TestDatabase } from "../support/dbHarness.ts"
import { PASSWORD } from "../support/testServer.ts"

const mediaDir = fileURLToPath(new URL("../../media", import.meta.url))
const publicUrl = "http://localhost:8080"

describe.each(dialects)("first-start seed ($name)", (dialect) => {
  let database: TestDatabase
  beforeEach(async () => {
    database = await dialect.create()
  })
  afterEach(() => database.dispose())

  const runSeed = async () => {
    const printed: string[] = []
    const result = await seed(database.db.kysely, { out: (text) => printed.push(text), publicUrl, mediaDir })
    return { result, printed: printed.join("\n") }
  }

  it("seeds settings, the two demo channels and a staff account whose printed password signs in", async () => {
    const { result, printed } = await runSeed()
    expect(result.seededStreams).toBe(2)

    const channels = await listOriginChannels(mediaDir)
    const streams = await listStreams(database.db.kysely)
    expect(streams.map((s) => s.title)).toEqual(["Demo Channel 1", "Demo Channel 2"])
    streams.forEach((stream, i) => {
      const channel = channels[i]
      expect(stream.src).toBe(`/live/demo${i + 1}/index.m3u8`)
      expect(stream.src).toBe(channel?.src)
      expect(stream.src_sldp).toBe(channel?.lowLatencySrc ?? channel?.src)
      expect(stream.image_location).toBe(`/posters/demo${i + 1}.svg`)
      expect(stream.maintenance_mode).toBe(false)
    })
    expect(streams[0]?.tags).toBe("chromecast,airplay,lls,?Demo")
    expect(streams[1]?.tags).toBe("lls,!Test pattern")

    const settings = await getSettings(database.db.kysely)
    expect(settings).toMatchObject(DEFAULT_SITE_SETTINGS)

    expect(result.staff?.email).toBe(STAFF_EMAIL)
    const password = /password: (\S+)/.exec(printed)?.[1] ?? ""
    expect(password).toBe(result.staff?.password)
    expect(password.length).toBeGreaterThanOrEqual(20)
    expect(printed).toContain(`email:    ${STAFF_EMAIL}`)
    const [admin] = await listUsers(database.db.kysely)
    expect(admin).toMatchObject({ email: STAFF_EMAIL, is_staff: true, is_active: true })
    expect(admin?.email_verified_at).not.toBeNull()
    expect(admin?.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)

    const config = loadConfig({ DATA_DIR: database.dataDir, DATABASE_URL: database.databaseUrl, STATIC_DIR: database.dataDir })
    const app = await buildApp({ config, db: database.db })
    try {
      const login = await app.inject({ method: "POST", url: "/api/users/login", payload: { email: STAFF_EMAIL, password } })
      expect(login.json()).toMatchObject({ success: true, resultCode: 1 })
      const token = (login.json() as { token: string }).token
      const tickets = await app.inject({ method: "GET", url: "/api/support/adminsuppottickets", headers: { token } })
      expect(tickets.statusCode).toBe(200)
      const poster = await app.inject({ method: "GET", url: streams[0]?.image_location ?? "" })
      expect(poster.statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })

  it("is idempotent and never prints a password twice", async () => {
    const first = await runSeed()
    const second = await runSeed()
    expect(second.result).toEqual({ seededStreams: 0, staff: undefined })
    expect(second.printed).toBe("")
    expect(await listStreams(database.db.kysely)).toHaveLength(2)
    expect(await listUsers(database.db.kysely)).toHaveLength(1)
    expect(first.result.staff).toBeDefined()
  })

  it("does not bring back demo streams an operator removed", async () => {
    await runSeed()
    for (const stream of await listStreams(database.db.kysely)) await deleteStream(database.db.kysely, stream.id)
    await runSeed()
    expect(await listStreams(database.db.kysely)).toEqual([])
  })

  it("creates no staff account when one exists, and never takes over a customer's address", async () => {
    await insertUser(database.db.kysely, {
      username: "admin",
      email: STAFF_EMAIL,
      password_hash: await hashPassword(PASSWORD),
      invite_token: "t1"
    })
    const { result } = await runSeed()
    expect(result.staff?.email).toMatch(/^admin-[0-9a-f]{6}@streamhub\.local$/)
    const customer = (await listUsers(database.db.kysely)).find((u) => u.email === STAFF_EMAIL)
    expect(customer?.is_staff).toBe(false)
    expect((await runSeed()).result.staff).toBeUndefined()
  })
})
