import { describe, expect, it } from "vitest"
import { TicketCategory } from "../../../src/domain/Ticket.ts"
import { openDatabase } from "../../../src/server/db/database.ts"
import { dialects } from "../../support/dbHarness.ts"
import { admin, startServer } from "../../support/e2eHarness.ts"
import { integrityProblems } from "../../support/integrity.ts"

const PASSWORD = "crash test password"
const body = (n: number) => ({
  session_id: `crash-${n}`,
  sitegroup_id: "streamhub",
  media_id: "1",
  site_id: "web",
  player_id: "tv",
  video_type: "live",
  created: 0,
  position: 60,
  player_version: "3.4.5",
  source: "hls",
  category: "",
  category_id: "",
  autoplay: true,
  muted: false,
  customer_user_id: ""
})

// Heartbeats share commits (see writeBatcher.ts): a heartbeat is answered only once its commit is
// done, so a server killed in the middle of a burst has every answered heartbeat on disk. Tickets
// written at the same time go the ordinary way, a transaction per request.
describe.each(dialects)("kill -9 during a burst of writes ($name)", (dialect) => {
  it("loses no acknowledged heartbeat or ticket, and the database passes its integrity check after restart", async () => {
    const test = await dialect.create()
    await test.db.close()
    const env: Record<string, string> = {
      DATA_DIR: test.dataDir,
      API_LIMIT_PER_MINUTE: "1000000",
      ...(test.databaseUrl === undefined ? {} : { DATABASE_URL: test.databaseUrl })
    }
    const server = await startServer(env)
    try {
      await admin(server, "user:create", "--email", "crash@example.com", "--password", PASSWORD)
      const login = await fetch(`${server.url}/api/users/login`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "crash@example.com", password: PASSWORD, isMobile: false })
      })
      const { token } = (await login.json()) as { token: string }
      const acknowledged: Array<string> = []
      const tickets: Array<string> = []
      let next = 0
      let crashed = false
      const player = async () => {
        while (!crashed) {
          const n = next++
          const answer = await fetch(`${server.url}/api/analytics/live/streamhub/ping`, {
            method: "POST",
            headers: { "content-type": "application/json", token },
            body: JSON.stringify(body(n))
          }).catch(() => undefined)
          if (answer?.status === 200) acknowledged.push(`crash-${n}`)
          // within the session's analytics budget for a minute (60), with more on their way, once
          // tickets are being written too
          if (acknowledged.length >= 40 && tickets.length >= 2 && !crashed) {
            crashed = true
            await server.crash()
          }
        }
      }
      const writer = async () => {
        while (!crashed) {
          const subject = `crash ticket ${next++}`
          const answer = await fetch(`${server.url}/api/support/ticket`, {
            method: "POST",
            headers: { "content-type": "application/json", token },
            body: JSON.stringify({ type: TicketCategory.STREAM_SERVICE, subject, description: "written while the server is killed" })
          }).catch(() => undefined)
          if (answer?.status === 200 && ((await answer.json().catch(() => ({}))) as { success?: boolean }).success === true)
            tickets.push(subject)
        }
      }
      await Promise.all([...Array.from({ length: 40 }, player), ...Array.from({ length: 4 }, writer)])
      // some were in flight when the process died: those were never answered
      expect(next).toBeGreaterThan(acknowledged.length)

      const again = await startServer(env)
      await again.stop()
      const db = await openDatabase({ dataDir: test.dataDir, databaseUrl: test.databaseUrl })
      try {
        const stored = new Set((await db.kysely.selectFrom("analytics_events").select("session_id").execute()).map((row) => row.session_id))
        expect(acknowledged.filter((id) => !stored.has(id))).toEqual([])
        expect(tickets.length).toBeGreaterThan(0)
        const subjects = new Set((await db.kysely.selectFrom("tickets").select("subject").execute()).map((row) => row.subject))
        expect(tickets.filter((subject) => !subjects.has(subject))).toEqual([])
        expect(await integrityProblems(db)).toEqual([])
        const connections = await db.kysely.selectFrom("player_connections").select("last_seen").execute()
        expect(connections).toHaveLength(1)
      } finally {
        await db.close()
      }
    } finally {
      await server.stop()
      await test.dispose()
    }
  })
})
