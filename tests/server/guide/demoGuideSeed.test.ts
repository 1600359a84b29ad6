import { fileURLToPath } from "node:url"
import type { FastifyInstance } from "fastify"
import type { Kysely } from "kysely"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { hashPassword } from "../../../src/server/account/passwords.ts"
import { insertUser } from "../../../src/server/account/usersRepo.ts"
import { buildApp } from "../../../src/server/app.ts"
import { loadConfig } from "../../../src/server/config.ts"
import type { Tables } from "../../../src/server/db/schema.ts"
import { DEMO_GUIDE_MARKER, seed } from "../../../src/server/seed.ts"
import { deleteSetting } from "../../../src/server/shell/settingsRepo.ts"
import { listStreams, updateStream } from "../../../src/server/streams/streamsRepo.ts"
import { dialects, type TestDatabase } from "../../support/dbHarness.ts"
import { load, xmltv } from "./guideFixtures.ts"

const mediaDir = fileURLToPath(new URL("../../../media", import.meta.url))
const DAY = 24 * 60 * 60 * 1000
const START = Date.parse("2026-11-23T09:10:00Z")

describe.each(dialects)("the demo guide of the first start ($name)", (dialect) => {
  let database: TestDatabase
  beforeEach(async () => {
    database = await dialect.create()
  })
  afterEach(() => database.dispose())
  const db = () => database.db.kysely
  const runSeed = (now: number) => seed(db(), { out: () => undefined, publicUrl: "http://localhost:8080", mediaDir, now: () => now })
  const guideEnd = async (channel: string) =>
    (
      await db()
        .selectFrom("guide_programmes")
        .select("stop_at")
        .where("channel_id", "=", channel)
        .orderBy("start_at", "desc")
        .limit(1)
        .executeTakeFirst()
    )?.stop_at
  const count = async (channel: string) =>
    (await db().selectFrom("guide_programmes").select("start_at").where("channel_id", "=", channel).execute()).length

  it("ties the demo streams to a generated week that the guide's endpoints answer from", async () => {
    await runSeed(START)
    const streams = await listStreams(db())
    expect(streams.map((s) => [s.title, s.epg_channel_id])).toEqual([
      ["Demo Channel 1", "demo1.streamhub.demo"],
      ["Demo Channel 2", "demo2.streamhub.demo"]
    ])
    for (const channel of ["demo1.streamhub.demo", "demo2.streamhub.demo"]) {
      const first = await db()
        .selectFrom("guide_programmes")
        .select("start_at")
        .where("channel_id", "=", channel)
        .orderBy("start_at")
        .limit(1)
        .executeTakeFirst()
      // from yesterday's start in UTC, so today is full in every zone, to a day past the seventh
      expect(first?.start_at).toBe("2026-11-22T00:00:00.000Z")
      expect(Date.parse((await guideEnd(channel)) ?? "")).toBeGreaterThanOrEqual(START + 8 * DAY)
    }

    const config = loadConfig({
      DATA_DIR: database.dataDir,
      DATABASE_URL: database.databaseUrl,
      STATIC_DIR: database.dataDir,
      MEDIA_DIR: mediaDir
    })
    const app = await buildApp({ config, db: database.db, now: () => START, guideRefresh: { firstAfterMs: DAY } })
    try {
      const session = await signInViewer(app, db())
      for (const day of ["2026-11-23", "2026-11-29"]) {
        const schedule = (
          await app.inject({ method: "GET", url: `/api/scheduler/${day}?tz=Europe/Oslo`, headers: { token: session } })
        ).json() as {
          data: { Items: Array<{ Channel: { Name: string; StreamId?: number }; EpgList: Array<{ Title: string; Subtitle: string }> }> }
        }
        expect(schedule.data.Items.map((item) => item.Channel)).toEqual(streams.map((s) => ({ Name: s.title, StreamId: s.id })))
        for (const item of schedule.data.Items) {
          expect(item.EpgList.length).toBeGreaterThanOrEqual(12)
          expect(item.EpgList.every((e) => e.Title !== "" && e.Subtitle !== "")).toBe(true)
        }
      }
      const nowNext = (await app.inject({ method: "GET", url: "/api/guide/now", headers: { token: session } })).json() as {
        data: Array<{ now: unknown; next: unknown }>
      }
      expect(nowNext.data).toHaveLength(2)
      expect(nowNext.data.every((entry) => entry.now !== null && entry.next !== null)).toBe(true)
    } finally {
      await app.close()
    }
  })

  it("keeps a week ahead on later starts, for demo channels no import has claimed", async () => {
    await runSeed(START)
    const claimedEnd = await guideEnd("demo2.streamhub.demo")
    const before = await count("demo1.streamhub.demo")
    // a restart a few hours later has nothing to add
    await runSeed(START + 6 * 60 * 60 * 1000)
    expect(await count("demo1.streamhub.demo")).toBe(before)

    await load(
      db(),
      xmltv(
        [{ id: "demo2.streamhub.demo", name: "Real Two" }],
        [{ channel: "demo2.streamhub.demo", start: "2026-11-23T10:00:00Z", stop: "2026-11-23T11:00:00Z", title: "Imported" }]
      )
    )
    await runSeed(START + 3 * DAY)
    expect(Date.parse((await guideEnd("demo1.streamhub.demo")) ?? "")).toBeGreaterThanOrEqual(START + 11 * DAY)
    expect(await guideEnd("demo2.streamhub.demo")).toBe(claimedEnd)
    const one = await db()
      .selectFrom("guide_programmes")
      .select(["start_at", "stop_at"])
      .where("channel_id", "=", "demo1.streamhub.demo")
      .orderBy("start_at")
      .execute()
    one.forEach((programme, i) => {
      if (i > 0) expect(programme.start_at).toBe(one[i - 1]?.stop_at)
    })
  })

  it("ties demo streams of a database seeded before the guide existed, once", async () => {
    await runSeed(START)
    const [first, second] = await listStreams(db())
    await updateStream(db(), first?.id ?? 0, { epg_channel_id: null })
    await updateStream(db(), second?.id ?? 0, { epg_channel_id: "chosen.tv" })
    await db().deleteFrom("guide_channels").execute()
    await deleteSetting(db(), DEMO_GUIDE_MARKER)
    await runSeed(START)
    expect((await listStreams(db())).map((s) => s.epg_channel_id)).toEqual(["demo1.streamhub.demo", "chosen.tv"])
    expect(await count("demo1.streamhub.demo")).toBeGreaterThan(7 * 12)
    // an operator's untying sticks
    await updateStream(db(), first?.id ?? 0, { epg_channel_id: null })
    await runSeed(START + DAY)
    expect((await listStreams(db())).map((s) => s.epg_channel_id)).toEqual([null, "chosen.tv"])
  })
})

async function signInViewer(app: FastifyInstance, db: Kysely<Tables>): Promise<string> {
  await insertUser(db, {
    username: "viewer",
    email: "viewer@example.com",
    password_hash: await hashPassword("viewer password"),
    invite_token: "viewer-invite",
    email_verified_at: new Date(START).toISOString(),
    created_at: new Date(START).toISOString()
  })
  const login = await app.inject({
    method: "POST",
    url: "/api/users/login",
    payload: { email: "viewer@example.com", password: "viewer password" }
  })
  return (login.json() as { token: string }).token
}
