import { Readable } from "node:stream"
import { fileURLToPath } from "node:url"
import Fastify, { type FastifyInstance } from "fastify"
import { registerOrigin } from "../../src/server/origin/originRoutes.ts"

const demoMedia = fileURLToPath(new URL("../../media", import.meta.url))

/** A live upstream made of the demo loop, counting every request it is sent by path. */
export interface Upstream {
  readonly url: string
  readonly counts: Map<string, number>
  count(prefix: string): number
  stop(): Promise<void>
  start(): Promise<void>
}

export interface UpstreamOptions {
  /** the loop's media (the demo channels unless given) */
  readonly mediaDir?: string
  /** sees every playlist the upstream answers, as it sends it */
  readonly onPlaylist?: (path: string, text: string) => void
}

export async function startUpstream({ mediaDir = demoMedia, onPlaylist }: UpstreamOptions = {}): Promise<Upstream> {
  const counts = new Map<string, number>()
  let app: FastifyInstance | undefined
  // the first start takes a free port; a start after a stop takes the same one
  let listening = 0
  const start = async () => {
    // stopped as a crashed upstream would be: every connection dropped at once, pooled ones included
    const server = Fastify({ forceCloseConnections: true })
    server.addHook("onRequest", async (request) => {
      const path = request.url.split("?", 1)[0] ?? ""
      counts.set(path, (counts.get(path) ?? 0) + 1)
    })
    if (onPlaylist !== undefined) {
      server.addHook("onSend", async (request, _reply, payload) => {
        const path = request.url.split("?", 1)[0] ?? ""
        if (path.endsWith(".m3u8") && typeof payload === "string") onPlaylist(path, payload)
        return payload
      })
    }
    await registerOrigin(server, { mediaDir })
    server.get("/html", async (_request, reply) => reply.type("text/html").send("<!doctype html><title>Sign in</title>"))
    server.get("/huge.m3u8", async (_request, reply) => reply.send(`#EXTM3U\n${"#EXT-X-COMMENT:x\n".repeat(200_000)}`))
    server.get("/loop", async (_request, reply) => reply.redirect("/loop"))
    server.get("/broken.m3u8", async (_request, reply) => reply.code(500).send("no"))
    // a segment that never ends: 64 KB every 20 ms until the client hangs up
    server.get("/endless.ts", (request, reply) => {
      const body = new Readable({ read() {} })
      const timer = setInterval(() => body.push(Buffer.alloc(64 * 1024, 0x47)), 20)
      request.raw.once("close", () => {
        clearInterval(timer)
        body.destroy()
      })
      return reply.type("video/mp2t").send(body)
    })
    await server.listen({ host: "127.0.0.1", port: listening })
    listening = (server.server.address() as { port: number }).port
    app = server
  }
  await start()
  return {
    get url() {
      return `http://127.0.0.1:${listening}`
    },
    counts,
    count: (prefix) => [...counts].filter(([path]) => path.startsWith(prefix)).reduce((sum, [, n]) => sum + n, 0),
    stop: async () => {
      await app?.close()
      app = undefined
    },
    start
  }
}
