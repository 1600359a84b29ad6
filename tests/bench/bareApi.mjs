/**
 * The baselines: bare Fastify 5 answering `GET /api/streams/all` with the JSON our server gave,
 * no database, no session, no checks. Started by the bench as its own process. With
 * `BARE_PLUGINS=1` the same fixed JSON goes out through our server's own security headers,
 * compression, error handler, body parsers and API rate limit (over in-memory counters), which
 * tells what those cost apart from what the endpoint does; that mode loads our TypeScript, the
 * bare one loads nothing but Fastify.
 */
import { readFileSync } from "node:fs"
import Fastify from "fastify"

const json = readFileSync(process.env.BARE_JSON ?? "", "utf8")
const plugins = process.env.BARE_PLUGINS === "1"
const app = Fastify()
const answer = async (_request, reply) => reply.type("application/json").send(json)
if (plugins) {
  const http = "../../src/server/http"
  const { registerSecurityHeaders } = await import(`${http}/securityHeaders.ts`)
  const { registerCompression } = await import(`${http}/compression.ts`)
  const { registerErrorHandler } = await import(`${http}/errorHandler.ts`)
  const { registerBodyParsers } = await import(`${http}/bodyParsers.ts`)
  const { registerApiRateLimit, DEFAULT_RATE_LIMITS } = await import(`${http}/rateLimits.ts`)
  const { memoryCounters } = await import(`${http}/counters.ts`)
  registerSecurityHeaders(app, "http://127.0.0.1")
  await registerCompression(app)
  registerErrorHandler(app)
  registerBodyParsers(app)
  await app.register(async (scope) => {
    await registerApiRateLimit(scope, { ...DEFAULT_RATE_LIMITS, apiPerMinute: 9_999_999 }, memoryCounters(Date.now), Date.now)
    scope.get("/api/streams/all", answer)
  })
} else {
  app.get("/api/streams/all", answer)
}
app.get("/api/maintenance", async () => ({ success: true }))
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" })
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)))
