import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import { recordHeartbeats } from "../../../src/server/connections/heartbeatsRepo.ts"
import { endPlayer } from "../../../src/server/connections/playersRepo.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 12, minute)).toISOString()

describe.each(dialects)("heartbeats of a batch on $name", (dialect) => {
  let test: TestDatabase
  let userId: number
  beforeEach(async () => {
    test = await dialect.create()
    userId = (await insertUser(test.db.kysely, { username: "v", email: "v@example.com", password_hash: "x", invite_token: "v" })).id
  })
  afterEach(() => test.dispose())

  const beat = (minute: number, streamId = "1", ip = "10.0.0.1") => ({
    userId,
    sessionId: 7,
    token: "player",
    streamId,
    app: "tv",
    ip,
    network: ip,
    at: at(minute)
  })
  const rows = () =>
    test.db.kysely
      .selectFrom("player_connections")
      .select(["stream_id", "ip", "first_seen", "last_seen", "ended_reason"])
      .orderBy("stream_id")
      .execute()

  it("keeps one row per player session, however many of its beats share a statement, at its latest beat and address", async () => {
    await recordHeartbeats(test.db.kysely, [beat(2, "1", "10.0.0.9"), beat(1), beat(3, "2"), beat(1, "2")], at(-1))
    expect(await rows()).toEqual([
      { stream_id: "1", ip: "10.0.0.9", first_seen: at(2), last_seen: at(2), ended_reason: null },
      { stream_id: "2", ip: "10.0.0.1", first_seen: at(3), last_seen: at(3), ended_reason: null }
    ])
  })

  it("moves a live connection's last beat on, and starts a quiet one afresh", async () => {
    await recordHeartbeats(test.db.kysely, [beat(0), beat(0, "2")], at(-1))
    // stream 1 beats on at minute 1; by minute 5 (live since minute 3) both have gone quiet
    await recordHeartbeats(test.db.kysely, [beat(1)], at(0))
    await recordHeartbeats(test.db.kysely, [beat(5), beat(5, "2")], at(3))
    expect((await rows()).map((row) => [row.first_seen, row.last_seen])).toEqual([
      [at(5), at(5)],
      [at(5), at(5)]
    ])
    await recordHeartbeats(test.db.kysely, [beat(6)], at(4))
    expect((await rows())[0]).toMatchObject({ first_seen: at(5), last_seen: at(6) })
  })

  it("leaves a connection staff ended ended, and starts a stopped player's again", async () => {
    await recordHeartbeats(test.db.kysely, [beat(0), beat(0, "2")], at(-1))
    await endPlayer(test.db.kysely, { sessionId: 7, streamId: "1", app: "tv" }, "staff", at(1))
    await endPlayer(test.db.kysely, { sessionId: 7, streamId: "2", app: "tv" }, "stopped", at(1))
    await recordHeartbeats(test.db.kysely, [beat(2), beat(2, "2")], at(0))
    expect(await rows()).toEqual([
      { stream_id: "1", ip: "10.0.0.1", first_seen: at(0), last_seen: at(0), ended_reason: "staff" },
      { stream_id: "2", ip: "10.0.0.1", first_seen: at(2), last_seen: at(2), ended_reason: null }
    ])
  })
})
