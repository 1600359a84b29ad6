import autocannon from "autocannon"
import { mkdtempSync } from "node:fs"
import { startBenchServer, OUR_SERVER } from "./benchServer.ts"
import { openDatabase } from "../../src/server/db/database.ts"
import { createSession } from "../../src/server/account/sessions.ts"
import { insertUser } from "../../src/server/account/usersRepo.ts"
const dir = mkdtempSync("/tmp/memexp-")
const env = { DATA_DIR: dir, API_LIMIT_PER_MINUTE: "9999999" }
let s = await startBenchServer(OUR_SERVER, env); await s.stop()
const db = await openDatabase({ dataDir: dir })
const u = await insertUser(db.kysely, { username: "p", email: "p@example.com", password_hash: "x", invite_token: "p" })
const token = await createSession(db.kysely, u.id, { isMobile: false, userAgent: "x", ip: "127.0.0.1" }, Date.now())
await db.close()
for (const flags of ["", "--max-semi-space-size=1", "--max-semi-space-size=4", "--max-semi-space-size=8"]) {
  s = await startBenchServer(OUR_SERVER, { ...env, NODE_OPTIONS: flags })
  await new Promise(r => setTimeout(r, 1000))
  const idle = (await s.probe()).rssMb
  let peak = 0
  const t = setInterval(async () => { peak = Math.max(peak, (await s.probe()).rssMb) }, 500)
  const r = await autocannon({ url: s.url + "/api/streams/all", connections: 100, duration: 5, headers: { token } })
  clearInterval(t)
  console.log(flags || "default", "idle", idle.toFixed(0), "peak", peak.toFixed(0), "rps", r.requests.average.toFixed(0), "p99", r.latency.p99)
  await s.stop()
}
