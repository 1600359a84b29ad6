import pg from "pg"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { streams } from "../../../src/server/streams/streamsFeature.ts"
import { insertStream, setStreamMaintenance } from "../../../src/server/streams/streamsRepo.ts"
import { changeUnseen as changeUnseenIn, operatorCli, schemaOf } from "../../support/changeSignals.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"

// GET /api/streams/all answers from the list it last read until the streams table changes. These
// check that no change, from this process or another, leaves it answering the old list: on
// SQLite the next answer has it; on PostgreSQL the one after its notification, milliseconds later.
describe.each(dialects)("the stream list the server keeps ($name)", (dialect) => {
  let server: TestServer
  let token: string
  let streamId: number
  beforeEach(async () => {
    server = await startTestServer(dialect)
    token = await server.signIn((await server.addUser()).email)
    streamId = (await insertStream(server.db.kysely, { title: "Arena", src: "https://cdn.example.com/a.m3u8" })).id
  })
  afterEach(() => server.dispose())

  const listed = async () =>
    ((await server.call("streams", { token })).json() as { data: Array<{ title: string; maintenance_mode: boolean }> }).data
  const titles = async () => (await listed()).map((stream) => stream.title)
  /** What another process's change is answered with: at once on SQLite, once its notification has arrived on PostgreSQL. */
  const soon = <T>(answer: () => Promise<T>) =>
    dialect.name === "sqlite" ? expect(answer()).resolves : expect.poll(answer, { interval: 10 })

  /** `stream:*` as the operator runs it */
  const admin = operatorCli(() => server)
  /** A title changed the way no change signal sees */
  const changeUnseen = (title: string) =>
    changeUnseenIn(dialect, server, "streams", "update streams set title = ? where id = ?", [title, streamId])
  const schema = () => schemaOf(server)

  /** Waits until answers come from memory (on PostgreSQL, once the listener is up). */
  const untilKept = async () => {
    const deadline = Date.now() + WAIT_MS
    for (let probe = 0; Date.now() < deadline; probe += 1) {
      await changeUnseen(`unseen ${probe}`)
      if ((await titles())[0] !== `unseen ${probe}`) return
    }
    expect.fail("the list was read afresh for every request")
  }

  it("answers from memory while the streams do not change", async () => {
    await untilKept()
  })

  it("answers a change the operator CLI made from its own process", async () => {
    await untilKept()
    await admin("stream:set", "--id", String(streamId), "--title", "Arena HD")
    await soon(titles).toEqual(["Arena HD"])
    await admin("stream:add", "--title", "News", "--src", "https://cdn.example.com/n.m3u8")
    await soon(titles).toEqual(["Arena HD", "News"])
    await admin("stream:maintenance", "--id", String(streamId), "--on")
    await soon(async () => (await listed())[0]?.maintenance_mode).toBe(true)
    await admin("stream:remove", "--id", String(streamId))
    await soon(titles).toEqual(["News"])
  })

  it("answers a change this process made at once", async () => {
    await untilKept()
    await streams.update(server.db.kysely, streamId, { title: "Arena HD" })
    expect(await titles()).toEqual(["Arena HD"])
    await setStreamMaintenance(server.db.kysely, streamId, true)
    expect((await listed())[0]?.maintenance_mode).toBe(true)
    await server.db.kysely.transaction().execute(async (trx) => {
      await streams.update(trx, streamId, { title: "Arena 4K" })
    })
    expect(await titles()).toEqual(["Arena 4K"])
  })

  it.skipIf(dialect.name !== "postgres")(
    "reads afresh while its listener is down, and answers from memory again once it is back",
    async () => {
      const client = new pg.Client({ connectionString: POSTGRES_URL })
      await client.connect()
      const listeners = async () =>
        (
          await client.query<{ pid: number }>("select pid from pg_stat_activity where application_name = $1", [
            `streamhub changes ${schema()}`
          ])
        ).rows.map((row) => row.pid)
      try {
        await untilKept()
        const [first] = await listeners()
        expect(first).toBeTypeOf("number")
        // waits until that backend has gone, so the server's socket has already been closed
        await client.query("select pg_terminate_backend($1, $2)", [first, WAIT_MS])
        // no notification will ever tell of this change: only a read finds it, which is what the
        // server does while not listening, and on its first answer after listening again
        await changeUnseen("during the outage")
        expect(await titles()).toEqual(["during the outage"])
        // a new connection in place of the one ended
        await expect.poll(async () => (await listeners()).filter((pid) => pid !== first)).toHaveLength(1)
        expect(await listeners()).not.toContain(first)
        await untilKept()
        await admin("stream:set", "--id", String(streamId), "--title", "after the outage")
        await soon(titles).toEqual(["after the outage"])
      } finally {
        await client.end()
      }
    }
  )
})
