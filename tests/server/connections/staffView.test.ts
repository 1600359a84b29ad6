import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CONNECTIONS_PAGE_SIZE } from "../../../src/domain/Reports.ts"
import { LIVE_CONNECTION_WINDOW_MS, SWITCH_GRACE_MS } from "../../../src/server/connections/liveness.ts"
import { type StaffView, weighedHere, weighedInDatabase } from "../../../src/server/connections/staffView.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"

// The staff view is weighed in the database on PostgreSQL and in the server on SQLite: both ways
// must give the same view of the same rows, on either database.

const AT = Date.UTC(2026, 0, 1, 12, 0, 0)
const iso = (ms: number) => new Date(ms).toISOString()

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

const comparable = (view: StaffView) => ({
  ...view,
  summary: {
    ...view.summary,
    multiple: [...view.summary.multiple].sort((a, b) => (a.email < b.email ? -1 : 1)),
    viewers: [...view.summary.viewers].sort(([a], [b]) => (a < b ? -1 : 1))
  }
})

describe.each(dialects)("the staff view, weighed in the database and here ($name)", (dialect) => {
  let test: TestDatabase
  beforeAll(async () => {
    test = await dialect.create()
  })
  afterAll(() => test.dispose())

  const fill = async (seed: number) => {
    const db = test.db.kysely
    await db.deleteFrom("player_connections").execute()
    await db.deleteFrom("unknown_viewers").execute()
    await db.deleteFrom("sessions").execute()
    await db.deleteFrom("users").execute()
    const next = random(seed)
    const pick = <T>(values: ReadonlyArray<T>): T => values[Math.floor(next() * values.length)] as T
    const users = await db
      .insertInto("users")
      .values(
        Array.from({ length: 40 }, (_, n) => ({
          username: `u${n}`,
          // some start alike, so the order by email matters
          email: `${pick(["a", "b", "ab"])}${n}@example.com`,
          password_hash: "x",
          invite_token: `u${n}-${seed}`,
          created_at: iso(AT)
        }))
      )
      .returning("id")
      .execute()
    const sessions = await db
      .insertInto("sessions")
      .values(
        Array.from({ length: 20 }, (_, n) => ({
          user_id: pick(users).id,
          token_hash: `s${n}-${seed}`,
          is_mobile: n % 2 === 0,
          user_agent: pick([null, "", "Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120.0 Safari/537.36"]),
          ip: "10.0.0.1",
          created_at: iso(AT),
          last_seen_at: iso(AT),
          expires_at: iso(AT + 86_400_000)
        }))
      )
      .returning("id")
      .execute()
    // times around the live window and the switch grace, to the millisecond, many of them shared
    const moments = [
      AT,
      AT - 1,
      AT - 1000,
      AT - SWITCH_GRACE_MS,
      AT - SWITCH_GRACE_MS - 1,
      AT - 20_000,
      AT - 20_000 + SWITCH_GRACE_MS,
      AT - 20_000 + SWITCH_GRACE_MS + 1,
      AT - LIVE_CONNECTION_WINDOW_MS,
      AT - LIVE_CONNECTION_WINDOW_MS - 1,
      AT - 60_000
    ]
    const rows = Array.from({ length: 150 }, (_, n) => {
      const first = pick(moments) - Math.floor(next() * 3) * 10_000
      const last = Math.max(first, pick(moments))
      const network = pick(["10.0.0.1", "10.0.0.2", "2001:db8::/64", "192.168.1.9"])
      return {
        user_id: pick(users.slice(0, 12)).id,
        session_id: next() < 0.8 ? pick(sessions).id : 100_000 + n,
        // mostly one device per account, so some accounts play twice without sharing
        token: next() < 0.7 ? "t1" : pick(["t2", "t3"]),
        stream_id: pick(["1", "2", "99"]),
        app: `app${n}`,
        ip: network.includes("/") ? `2001:db8::${n}` : network,
        network,
        first_seen: iso(first),
        last_seen: iso(last),
        ended_at: next() < 0.1 ? iso(AT - 1000) : null,
        ended_reason: null
      }
    })
    await db.insertInto("player_connections").values(rows).execute()
    await db
      .insertInto("unknown_viewers")
      .values(
        ["10.0.0.1", "10.0.0.7", "10.0.0.8", "192.168.1.9", "10.9.9.9"].map((ip, n) => ({
          ip,
          channel: "demo1",
          first_seen: iso(AT - 200_000),
          last_seen: iso(AT - 100_000 + n * 20_000)
        }))
      )
      .execute()
  }

  it("gives the same counters, pages and refused addresses either way", async () => {
    const seen = { pages: 0, shared: 0, light: 0, gaveWay: 0 }
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      await fill(seed)
      const db = test.db.kysely
      const inWindow = await db
        .selectFrom("player_connections")
        .select((eb) => eb.fn.countAll<number>().as("rows"))
        .where("last_seen", ">=", iso(AT - LIVE_CONNECTION_WINDOW_MS))
        .where("ended_at", "is", null)
        .executeTakeFirstOrThrow()
      for (const page of [undefined, 1, 2, 3, 50]) {
        const options = { at: AT, windowMs: LIVE_CONNECTION_WINDOW_MS, unknownLimit: 3, page }
        const here = await weighedHere(db, options)
        expect(comparable(await weighedInDatabase(db, options)), `seed ${seed}, page ${page}`).toEqual(comparable(here))
        if (page === undefined) {
          if (here.summary.rows > CONNECTIONS_PAGE_SIZE) seen.pages += 1
          if (here.summary.multiple.length > 0) seen.shared += 1
          if (here.shown.some((row) => row.severity === "light")) seen.light += 1
          if (here.summary.rows < Number(inWindow.rows)) seen.gaveWay += 1
        }
      }
    }
    // the data make every case happen: several pages, shared accounts, accounts playing twice at
    // home, connections that gave way to a newer start in their household
    expect(
      Object.values(seen).every((count) => count > 0),
      JSON.stringify(seen)
    ).toBe(true)
  })
})
