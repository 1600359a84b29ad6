import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { setMaintenance } from "../../../src/server/shell/maintenanceRepo.ts"
import { setSetting } from "../../../src/server/shell/settingsRepo.ts"
import { changeUnseen as changeUnseenIn, operatorCli } from "../../support/changeSignals.ts"
import { dialects } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"
import { WAIT_MS } from "../../support/timeouts.ts"

// Every page asks for the maintenance notice, the site settings and the latest announcement: the
// server answers them from what it last read until their table changes. No change may leave it
// answering the old rows: this process's own at once; another process's within moments (SQLite's
// change count is read again every 50 ms, PostgreSQL's notification takes a round trip).
describe.each(dialects)("the maintenance notice, settings and announcement the server keeps ($name)", (dialect) => {
  let server: TestServer
  let token: string
  beforeEach(async () => {
    server = await startTestServer(dialect)
    token = await server.signIn((await server.addUser()).email)
  })
  afterEach(() => server.dispose())

  const maintenance = async () => (await server.call("maintenance")).json() as { maintenanceMode: boolean; title: string }
  const siteName = async () => ((await server.call("siteSettings")).json() as { data: { siteName: string } }).data.siteName
  const announcement = async () => ((await server.call("announcement", { token })).json() as { title?: string }).title
  /** What another process's change is answered with, once this server has heard of it. */
  const soon = <T>(answer: () => Promise<T>) => expect.poll(answer, { interval: 10 })

  /** The operator CLI */
  const admin = operatorCli(() => server)
  /** The maintenance title changed the way no change signal sees */
  const changeUnseen = (title: string) =>
    changeUnseenIn(dialect, server, "maintenance", "update maintenance set title = ? where id = 1", [title])

  /** Waits until answers come from memory (on PostgreSQL, once the listener is up). */
  const untilKept = async () => {
    await setMaintenance(server.db.kysely, { maintenance_mode: false, title: "kept" })
    const deadline = Date.now() + WAIT_MS
    for (let probe = 0; Date.now() < deadline; probe += 1) {
      await changeUnseen(`unseen ${probe}`)
      if ((await maintenance()).title !== `unseen ${probe}`) return
    }
    expect.fail("the maintenance notice was read afresh for every request")
  }

  it("answers from memory while nothing changes", async () => {
    await untilKept()
  })

  it("answers a change the operator CLI made from its own process", async () => {
    await untilKept()
    await admin("maintenance:on", "--title", "Upgrade", "--first", "We are upgrading", "--second", "Back at 20:00")
    await soon(async () => (await maintenance()).maintenanceMode).toBe(true)
    await admin("maintenance:off")
    await soon(async () => (await maintenance()).maintenanceMode).toBe(false)
    await admin("settings:set", "--key", "siteName", "--value", "Match Night")
    await soon(siteName).toBe("Match Night")
    await admin("announce", "--title", "Final", "--text", "Tonight at 9")
    await soon(announcement).toBe("Final")
  })

  it("answers a change this process made at once", async () => {
    await untilKept()
    await setMaintenance(server.db.kysely, { maintenance_mode: true, title: "Now" })
    expect(await maintenance()).toMatchObject({ maintenanceMode: true, title: "Now" })
    expect(await siteName()).toBe("StreamHub")
    await setSetting(server.db.kysely, "siteName", "Derby Day")
    expect(await siteName()).toBe("Derby Day")
  })
})
