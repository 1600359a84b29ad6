import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import { recordHeartbeats } from "../../../src/server/connections/connectionsRepo.ts"
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

  const beat = (minute: number, ip = "10.0.0.1") => ({ userId, token: "player", ip, app: "tv", at: at(minute) })
  const rows = () => test.db.kysely.selectFrom("player_connections").select(["ip", "first_seen", "last_seen"]).orderBy("ip").execute()

  it("keeps one row per connection, however many of its beats share a statement, at its latest beat", async () => {
    await recordHeartbeats(test.db.kysely, [beat(2), beat(1), beat(3, "10.0.0.2"), beat(1, "10.0.0.2")], at(-1))
    expect(await rows()).toEqual([
      { ip: "10.0.0.1", first_seen: at(2), last_seen: at(2) },
      { ip: "10.0.0.2", first_seen: at(3), last_seen: at(3) }
    ])
  })

  it("moves a live connection's last beat on, and starts a quiet one afresh", async () => {
    await recordHeartbeats(test.db.kysely, [beat(0), beat(0, "10.0.0.2")], at(-1))
    // 10.0.0.1 beats on at minute 1; by minute 5 (live since minute 3) both have gone quiet
    await recordHeartbeats(test.db.kysely, [beat(1)], at(0))
    await recordHeartbeats(test.db.kysely, [beat(5), beat(5, "10.0.0.2")], at(3))
    expect(await rows()).toEqual([
      { ip: "10.0.0.1", first_seen: at(5), last_seen: at(5) },
      { ip: "10.0.0.2", first_seen: at(5), last_seen: at(5) }
    ])
    await recordHeartbeats(test.db.kysely, [beat(6)], at(4))
    expect((await rows())[0]).toEqual({ ip: "10.0.0.1", first_seen: at(5), last_seen: at(6) })
  })
})
