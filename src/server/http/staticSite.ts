import { stat } from "node:fs/promises"
import path from "node:path"
import fastifyStatic from "@fastify/static"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { appPreloadHeader } from "./appChunks.ts"
import { failureBody } from "./HttpFailure.ts"
import { contentSecurityPolicy } from "./securityHeaders.ts"

/** Where the app's streams and posters come from, asked each time the page is served. */
export type MediaOrigins = () => Promise<ReadonlyArray<string>>

export const NOT_BUILT_MESSAGE =
  "StreamHub: the web app has not been built yet.\n" +
  "Run `npm run build` (or `npm start`, which builds and then serves), then reload this page.\n"

const IMMUTABLE = "public, max-age=31536000, immutable"

// Vite fingerprints everything under assets/, so those never change; index.html must be
// revalidated every time or users would keep loading a stale build.
const cacheControlFor = (root: string, file: string): string => {
  const relative = path.relative(root, file).split(path.sep).join("/")
  if (relative.startsWith("assets/")) return IMMUTABLE
  if (relative.endsWith(".html")) return "no-cache"
  return "public, max-age=3600"
}

const isReserved = (pathname: string): boolean =>
  pathname === "/api" || pathname.startsWith("/api/") || pathname.startsWith("/live/") || pathname === "/time.json"

/** A browser navigating to a client-side route such as /login or /player?default=1. */
const isPageRequest = (request: FastifyRequest): boolean => {
  if (request.method !== "GET" && request.method !== "HEAD") return false
  const pathname = request.url.split("?")[0] ?? "/"
  const last = pathname.split("/").pop() ?? ""
  if (isReserved(pathname) || last.includes(".")) return false
  const accept = request.headers.accept ?? "*/*"
  return accept.includes("text/html") || accept.includes("*/*")
}

const PLAYER_PAGE = /^\/(player|playersldp)\/?$/

async function sendIndex(request: FastifyRequest, reply: FastifyReply, root: string, mediaOrigins: MediaOrigins, preloads: AppPreloads): Promise<FastifyReply> {
  const index = await stat(path.join(root, "index.html")).catch(() => undefined)
  if (index?.isFile() !== true) {
    return reply.code(503).type("text/plain; charset=utf-8").header("cache-control", "no-store").send(NOT_BUILT_MESSAGE)
  }
  // an operator's stream change takes effect at the viewer's next page load
  const policy = contentSecurityPolicy(await mediaOrigins().catch(() => []))
  const pathname = request.url.split("?")[0] ?? "/"
  const link = PLAYER_PAGE.test(pathname) ? undefined : await preloads(index.mtimeMs)
  if (link !== undefined) reply.header("link", link)
  return reply.header("cache-control", "no-cache").header("content-security-policy", policy).sendFile("index.html")
}

/** The app's preload header, read again only when a new build replaces index.html. */
type AppPreloads = (indexMtimeMs: number) => Promise<string | undefined>

function cachedPreloads(staticDir: string): AppPreloads {
  let cached: { mtimeMs: number; header: Promise<string | undefined> } | undefined
  return (mtimeMs) => {
    if (cached?.mtimeMs !== mtimeMs) cached = { mtimeMs, header: appPreloadHeader(staticDir) }
    return cached.header
  }
}

/** Serves the built SPA and answers unknown page routes with its index.html; 404 JSON otherwise. */
export async function registerStaticSite(app: FastifyInstance, staticDir: string, mediaOrigins: MediaOrigins): Promise<void> {
  await app.register(fastifyStatic, {
    root: staticDir,
    index: false,
    dotfiles: "ignore",
    cacheControl: false,
    // the build writes .br and .gz twins of its text files (vite.config.ts)
    preCompressed: true,
    // The build may simply not exist yet; sendIndex explains that to whoever asks.
    suppressWarning: true,
    // the build's source maps are for its developers, not for every visitor
    allowedPath: (pathName) => !pathName.endsWith(".map"),
    setHeaders: (reply, file) => {
      reply.header("cache-control", cacheControlFor(staticDir, file))
    }
  })

  const preloads = cachedPreloads(staticDir)
  // The static handler would refuse the root directory itself.
  app.get("/", async (request, reply) => sendIndex(request, reply, staticDir, mediaOrigins, preloads))

  app.setNotFoundHandler(async (request, reply) => {
    if (isPageRequest(request)) return sendIndex(request, reply, staticDir, mediaOrigins, preloads)
    return reply.code(404).send(failureBody(404, "Not found"))
  })
}
