import { randomBytes } from "node:crypto"
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises"
import os from "node:os"
import path from "node:path"
import type { FastifyInstance, LightMyRequestResponse } from "fastify"
import { expect } from "vitest"
import { api, type EndpointName } from "../../src/domain/contract/api.ts"
import { ApiFailure, buildPath } from "../../src/domain/contract/endpoint.ts"
import { decodeWith } from "../../src/domain/decode.ts"
import { hashPassword } from "../../src/server/account/passwords.ts"
import { insertUser } from "../../src/server/account/usersRepo.ts"
import { type BuildAppOptions, buildApp } from "../../src/server/app.ts"
import { type Config, loadConfig } from "../../src/server/config.ts"
import type { Db } from "../../src/server/db/database.ts"
import type { UserRow } from "../../src/server/db/schema.ts"
import type { RateLimits } from "../../src/server/http/rateLimits.ts"
import { invites } from "../../src/server/invites/invitesFeature.ts"
import type { DialectHarness } from "./dbHarness.ts"

export const INDEX_HTML = "<!doctype html><html><head><title>StreamHub test</title></head><body><div id=root></div></body></html>"
export const PASSWORD = "correct horse battery"

export interface CallOptions {
  readonly token?: string
  readonly body?: unknown
  readonly params?: Record<string, string>
  readonly query?: Record<string, string>
  /** Each test picks its own address so per-IP limits of one test do not leak into another. */
  readonly ip?: string
  readonly headers?: Record<string, string>
}

export interface TestServer {
  app: FastifyInstance
  readonly db: Db
  readonly config: Config
  /** Epoch ms the server reads as "now"; tests move it. */
  clock: number
  addUser(options?: { email?: string; staff?: boolean; verified?: boolean; active?: boolean; points?: number }): Promise<UserRow>
  signIn(email: string, password?: string, ip?: string): Promise<string>
  /** Calls a contract endpoint and checks the answer against the contract (or ApiFailure). */
  call(name: EndpointName, options?: CallOptions): Promise<LightMyRequestResponse>
  dispose(): Promise<void>
}

const checkFailure = decodeWith(ApiFailure)

/** Asserts a response is exactly what the contract promises for its status. */
export function expectContractShape(name: EndpointName, response: LightMyRequestResponse): void {
  expect(response.headers["content-type"]).toMatch(/^application\/json/)
  const body: unknown = response.json()
  const result = response.statusCode === 200 ? decodeWith(api[name].response)(body) : checkFailure(body)
  expect(result, `${name} answered ${response.statusCode} ${response.body}`).toMatchObject({ ok: true })
  if (response.statusCode !== 200) expect((body as { status: number }).status).toBe(response.statusCode)
}

let ipCounter = 0
/** A fresh client address. */
export const nextIp = (): string => {
  ipCounter += 1
  return `10.${(ipCounter >> 16) & 255}.${(ipCounter >> 8) & 255}.${ipCounter & 255}`
}

export async function startTestServer(
  dialect: DialectHarness,
  options: {
    limits?: Partial<RateLimits>
    built?: boolean
    publicUrl?: string
    bodyLimit?: number
    housekeeping?: BuildAppOptions["housekeeping"]
    reminders?: BuildAppOptions["reminders"]
    /** more of the environment the server reads its configuration from */
    env?: Readonly<Record<string, string>>
  } = {}
): Promise<TestServer> {
  const database = await dialect.create()
  const staticDir = await mkdtemp(path.join(os.tmpdir(), "streamhub-static-"))
  if (options.built ?? true) {
    await writeFile(path.join(staticDir, "index.html"), INDEX_HTML)
    await mkdir(path.join(staticDir, "assets"))
    await writeFile(path.join(staticDir, "assets", "index-abc123.js"), "console.log('app')\n")
  }
  const config = loadConfig({
    DATA_DIR: database.dataDir,
    DATABASE_URL: database.databaseUrl,
    STATIC_DIR: staticDir,
    PUBLIC_URL: options.publicUrl ?? "http://localhost:8080",
    ...options.env
  })
  const server: TestServer = {
    app: undefined as unknown as FastifyInstance,
    db: database.db,
    config,
    clock: Date.UTC(2026, 0, 15, 12, 0, 0),
    async addUser(user = {}) {
      const email = user.email ?? `user-${randomBytes(4).toString("hex")}@example.com`
      const row = await insertUser(database.db.kysely, {
        username: email.split("@")[0] ?? "user",
        email,
        password_hash: await hashPassword(PASSWORD),
        invite_token: randomBytes(12).toString("base64url"),
        is_staff: user.staff ?? false,
        is_active: user.active ?? true,
        email_verified_at: user.verified === false ? null : new Date(server.clock).toISOString(),
        created_at: new Date(server.clock).toISOString()
      })
      if ((user.points ?? 0) !== 0) {
        await invites.addLedgerEntry(database.db.kysely, { userId: row.id, points: user.points ?? 0, reason: "adjust", at: row.created_at })
      }
      return row
    },
    async signIn(email, password = PASSWORD, ip = nextIp()) {
      const response = await server.call("login", { body: { email, password }, ip })
      const body = response.json() as { success: boolean; token?: string }
      expect(body.success, response.body).toBe(true)
      return body.token ?? ""
    },
    async call(name, call = {}) {
      const endpoint = api[name]
      const response = await server.app.inject({
        method: endpoint.method,
        url: buildPath(endpoint.path, call.params, call.query),
        remoteAddress: call.ip ?? nextIp(),
        headers: { ...(call.token === undefined ? {} : { token: call.token }), ...call.headers },
        ...(call.body === undefined ? {} : { payload: call.body as object })
      })
      expectContractShape(name, response)
      return response
    },
    async dispose() {
      await server.app.close()
      await database.dispose()
      await rm(staticDir, { recursive: true, force: true })
    }
  }
  server.app = await buildApp({
    config,
    db: database.db,
    now: () => server.clock,
    ...(options.limits === undefined ? {} : { limits: options.limits }),
    ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
    // Tests that move the clock run housekeeping passes themselves; a timer's pass would race them.
    housekeeping: options.housekeeping ?? { firstAfterMs: 24 * 60 * 60 * 1000 },
    // and reminder passes, which mail what the moved clock made due
    reminders: options.reminders ?? { firstAfterMs: 24 * 60 * 60 * 1000 }
  })
  return server
}

/** Row counts of the tables a failed request must leave alone. */
export async function tableCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {}
  for (const table of ["users", "sessions", "streams", "tickets", "announcements", "settings"] as const) {
    const row = await db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow()
    counts[table] = Number(row.n)
  }
  return counts
}
