/**
 * The baseline: bare Fastify 5 answering `GET /api/streams/all` with the JSON our server gave,
 * no database, no session, no checks. Started by the bench as its own process.
 */
import { readFileSync } from "node:fs"
import Fastify from "fastify"

const json = readFileSync(process.env.BARE_JSON ?? "", "utf8")
const app = Fastify()
app.get("/api/streams/all", async (_request, reply) => reply.type("application/json").send(json))
app.get("/api/maintenance", async () => ({ success: true }))
await app.listen({ port: Number(process.env.PORT), host: "127.0.0.1" })
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)))
