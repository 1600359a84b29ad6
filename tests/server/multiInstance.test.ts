import { mkdtemp, readdir, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { dialects, type TestDatabase } from "../support/dbHarness.ts"
import { admin, type RunningServer, startServer } from "../support/e2eHarness.ts"

const postgres = dialects.find((dialect) => dialect.name === "postgres")
const PASSWORD = "two instances password"
const API_LIMIT = 150

// Several instances behind one reverse proxy on one PostgreSQL must act as one service (DESIGN.md,
// "Running more than one instance"): sessions, limits, lockouts and mail are shared through the
// database. Both run as real processes on their own ports and data dirs; the test plays the
// proxy, naming the client in X-Forwarded-For, so each case is a client of its own.
describe.skipIf(postgres === undefined)("two instances on one PostgreSQL", () => {
  let database: TestDatabase
  let dataDirs: Array<string> = []
  let a: RunningServer
  let b: RunningServer
  let client = 0
  const nextClient = () => `198.51.100.${++client}`

  beforeAll(async () => {
    database = await postgres!.create({ migrate: false })
    dataDirs = [await mkdtemp(join(tmpdir(), "streamhub-a-")), await mkdtemp(join(tmpdir(), "streamhub-b-"))]
    const env = (dataDir: string) => ({
      DATA_DIR: dataDir,
      DATABASE_URL: database.databaseUrl!,
      TRUST_PROXY: "loopback",
      API_LIMIT_PER_MINUTE: String(API_LIMIT)
    })
    // started in the same instant on an empty database
    const [first, second] = await Promise.all(dataDirs.map((dataDir) => startServer(env(dataDir))))
    a = first!
    b = second!
    await admin(a, "user:create", "--email", "viewer@example.com", "--password", PASSWORD)
  })

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()])
    for (const dir of dataDirs) await rm(dir, { recursive: true, force: true })
    await database?.dispose()
  })

  const call = (server: RunningServer, path: string, options: { from: string; token?: string; body?: unknown; method?: string }) =>
    fetch(`${server.url}${path}`, {
      method: options.method ?? (options.body === undefined ? "GET" : "POST"),
      headers: {
        "x-forwarded-for": options.from,
        ...(options.body === undefined ? {} : { "content-type": "application/json" }),
        ...(options.token === undefined ? {} : { token: options.token })
      },
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
    })
  const signIn = async (server: RunningServer, from: string, email = "viewer@example.com", password = PASSWORD) =>
    call(server, "/api/users/login", { from, body: { email, password, isMobile: false } })
  const tokenFrom = async (server: RunningServer) => ((await (await signIn(server, nextClient())).json()) as { token: string }).token
  const signedIn = async (server: RunningServer, token: string) =>
    ((await (await call(server, "/api/users/isuserauthenticated", { from: nextClient(), token })).json()) as { success: boolean }).success

  it("came up with one set of first-start rows", async () => {
    const streams = await database.db.kysely.selectFrom("streams").select("id").execute()
    const staff = await database.db.kysely.selectFrom("users").select("id").where("is_staff", "=", true).execute()
    expect(streams).toHaveLength(2)
    expect(staff).toHaveLength(1)
    expect([a.output(), b.output()].filter((output) => output.includes("staff account created"))).toHaveLength(1)
  })

  it("takes a session made on one on the other, and a sign-out everywhere on one ends it on the other", async () => {
    const token = await tokenFrom(a)
    const other = await tokenFrom(b)
    expect(await signedIn(b, token)).toBe(true)
    expect(await signedIn(a, other)).toBe(true)
    expect((await call(a, "/api/users/logoutall", { from: nextClient(), token, method: "POST" })).status).toBe(200)
    // an instance keeps a looked-up session for at most a second
    await new Promise((resolve) => setTimeout(resolve, 1_100))
    expect(await signedIn(b, other)).toBe(false)
    expect(await signedIn(b, token)).toBe(false)
  })

  it("holds the sign-in limit per client across both", async () => {
    const from = nextClient()
    const statuses: Array<number> = []
    for (let i = 0; i < 12; i += 1)
      statuses.push((await signIn(i % 2 === 0 ? a : b, from, `nobody${i}@example.com`, "wrong password")).status)
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429, 429])
  })

  it("holds an account's wrong-password count per network across both", async () => {
    const from = nextClient()
    for (let i = 0; i < 3; i += 1)
      expect(await (await signIn(i % 2 === 0 ? a : b, from, "viewer@example.com", `guess ${i}`)).json()).toMatchObject({ resultCode: 12 })
    expect((await signIn(b, from)).status).toBe(429)
    expect((await signIn(a, from)).status).toBe(429)
    // the owner elsewhere still gets in
    expect((await signIn(b, nextClient())).status).toBe(200)
  })

  it("holds the password-reset limit per client across both, and sends one mail per request while both run mail workers", async () => {
    const from = nextClient()
    const statuses: Array<number> = []
    for (let i = 0; i < 6; i += 1) {
      statuses.push(
        (await call(i % 2 === 0 ? a : b, "/api/users/create-password-reset-token", { from, body: { email: `someone${i}@example.com` } }))
          .status
      )
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429])
    expect(
      (await call(b, "/api/users/create-password-reset-token", { from: nextClient(), body: { email: "viewer@example.com" } })).status
    ).toBe(200)
    const mails = async () =>
      (
        await Promise.all(
          dataDirs.map(async (dir) => (await readdir(join(dir, "outbox")).catch(() => [])).filter((name) => name.endsWith(".eml")))
        )
      ).flat()
    await expect.poll(mails).not.toHaveLength(0)
    // both workers poll every few seconds: give the other one its chance to send it again
    await new Promise((resolve) => setTimeout(resolve, 6_000))
    const outbox = await database.db.kysely.selectFrom("outbox").select(["to_address", "sent_at"]).execute()
    expect(outbox.filter((mail) => mail.to_address === "viewer@example.com")).toHaveLength(1)
    expect(await mails()).toHaveLength(1)
  })

  /** What both instances' API-wide counts for `client` add up to in the database. */
  const countedFor = async (client: string): Promise<number> => {
    const row = await database.db.kysely.selectFrom("rate_limits").select("count").where("key", "=", `api ${client}`).executeTakeFirst()
    return row?.count ?? 0
  }

  it("holds the API-wide limit per client across both", async () => {
    const from = nextClient()
    let answered = 0
    const refusedBy = new Set<string>()
    for (let i = 0; i < 2 * API_LIMIT && refusedBy.size < 2; i += 1) {
      const server = i % 2 === 0 ? a : b
      const response = await call(server, "/api/maintenance", { from })
      if (response.status === 200) answered += 1
      else if (response.status === 429) refusedBy.add(server.url)
      // a pause now and then, as a busy client would make, lets the counts meet in the database
      if (i % 20 === 0) await expect.poll(() => countedFor(from)).toBe(i + 1)
    }
    expect(refusedBy.size).toBe(2)
    // counted per process, the client would get about twice the limit
    expect(answered).toBeLessThanOrEqual(API_LIMIT * 1.2)
    expect(answered).toBeGreaterThanOrEqual(API_LIMIT * 0.8)
  })
})
