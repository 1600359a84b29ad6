import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import { createTelemetryWrites, type TelemetryWrite } from "../../../src/server/telemetry/telemetryWrites.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const AT = Date.UTC(2026, 0, 1, 12, 0)

describe.each(dialects)("telemetry's shared commits on $name", (dialect) => {
  let test: TestDatabase
  let userId: number
  beforeEach(async () => {
    test = await dialect.create()
    userId = (await insertUser(test.db.kysely, { username: "v", email: "v@example.com", password_hash: "x", invite_token: "v" })).id
  })
  afterEach(() => test.dispose())

  const heartbeat = (sessionId: number, streamId: string): TelemetryWrite => ({
    kind: "analytics",
    event: {
      user_id: userId,
      event: "heartbeat",
      video_type: "live",
      sitegroup_id: "1",
      media_id: streamId,
      session_id: `s${sessionId}`,
      player_id: "tv",
      position: "0",
      created: AT,
      received_at: new Date(AT).toISOString(),
      ip: "10.0.0.1"
    },
    beat: {
      userId,
      sessionId,
      token: "player",
      streamId,
      app: "tv",
      ip: "10.0.0.1",
      network: "10.0.0.1",
      at: new Date(AT).toISOString()
    },
    at: AT
  })

  const count = async (table: "analytics_events" | "player_connections" | "metering") =>
    Number(
      (
        await test.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n
    )

  it("writes a batch of heartbeats' analytics rows and connections together, on PostgreSQL as one statement", async () => {
    const writes = createTelemetryWrites(test.db.kysely)
    const statements: Array<string> = []
    const stop = test.db.onQuery((_seconds, statement) => statements.push(statement))
    await Promise.all([heartbeat(1, "1"), heartbeat(2, "1"), heartbeat(1, "2")].map((write) => writes.write(write)))
    stop()
    await writes.close()
    expect(await count("analytics_events")).toBe(3)
    expect(await count("player_connections")).toBe(3)
    // SQLite's group commit is its transaction (begin and commit count as "other")
    expect(statements).toEqual(test.db.dialect === "postgres" ? ["with"] : ["other", "insert", "insert", "other"])
  })

  it("commits heartbeats with other telemetry in one transaction, and one failing write alone", async () => {
    const writes = createTelemetryWrites(test.db.kysely)
    const metering: TelemetryWrite = {
      kind: "metering",
      row: { user_id: userId, token_id: "t1", factor: 1, received_at: new Date(AT).toISOString() }
    }
    // a row the database refuses (no user): only its own write fails
    const valid = heartbeat(3, "3")
    const broken = { ...valid, event: { ...(valid.kind === "analytics" ? valid.event : {}), user_id: null } } as unknown as TelemetryWrite
    const results = await Promise.allSettled([heartbeat(1, "1"), metering, broken].map((write) => writes.write(write)))
    await writes.close()
    expect(results.map((result) => result.status)).toEqual(["fulfilled", "fulfilled", "rejected"])
    expect(await count("metering")).toBe(1)
    expect(await count("analytics_events")).toBe(1)
    expect(await count("player_connections")).toBe(1)
  })
})
