import { createHash } from "node:crypto"
import { readFile, stat } from "node:fs/promises"
import path from "node:path"
import fastifyStatic from "@fastify/static"
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify"
import { appPreloadHeader, PLAYER_LIBRARY } from "./appChunks.ts"
import { failureBody } from "./HttpFailure.ts"
import { contentSecurityPolicy } from "./securityHeaders.ts"

/** Where the app's streams and posters come from, asked each time the page is served. */
export type MediaOrigins = () => Promise<ReadonlyArray<string>>

/** What decides whether a prerendered page still shows the site as it is, asked each time one is served. */
export type SiteNow = () => Promise<{ readonly siteName: string; readonly maintenance: boolean }>

export interface StaticSiteOptions {
  readonly mediaOrigins: MediaOrigins
  readonly site: SiteNow
}

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

const SOURCE_MAP = /\.map\/?$/i

/** Whether a request's path names a source map, as written or once decoded. */
const namesSourceMap = (url: string): boolean => {
  const pathname = url.split("?", 1)[0] ?? ""
  if (SOURCE_MAP.test(pathname)) return true
  // without an escape the decoded path is this one (every request passes here)
  if (!pathname.includes("%")) return false
  try {
    return SOURCE_MAP.test(decodeURIComponent(pathname))
  } catch {
    return false // not a readable path: the static files refuse it themselves
  }
}

const ASSET_NAME = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/

const PLAYER_PAGE = /^\/(player|playersldp)\/?$/

async function sendIndex(
  request: FastifyRequest,
  reply: FastifyReply,
  root: string,
  { mediaOrigins, site }: StaticSiteOptions,
  page: AppPage
): Promise<FastifyReply> {
  const index = await stat(path.join(root, "index.html")).catch(() => undefined)
  if (index?.isFile() !== true) {
    return reply.code(503).type("text/plain; charset=utf-8").header("cache-control", "no-store").send(NOT_BUILT_MESSAGE)
  }
  const { preloads, playerPreloads, inlineScripts, prerendered } = await page(index.mtimeMs)
  // an operator's stream change takes effect at the viewer's next page load
  const policy = contentSecurityPolicy(await mediaOrigins().catch(() => []), inlineScripts)
  const [pathname = "/", query = ""] = request.url.split("?", 2)
  const prerenderedPage = prerenderedFor(prerendered, pathname, query)
  // Renamed since the build, or in maintenance (or the database out of reach): the app draws the
  // page itself, which it would otherwise swap for the prerendered one as the visitor types.
  const file = prerenderedPage !== undefined && (await stillFits(prerenderedPage, site)) ? prerenderedPage.file : undefined
  // A prerendered page paints once its stylesheets are in: the app's chunks, named early, would
  // share the connection with them (on a slow phone link they held the first paint back by a
  // third). Its script asks for them once the stylesheets are in.
  const link = file !== undefined ? undefined : PLAYER_PAGE.test(pathname) ? playerPreloads : preloads
  if (link !== undefined) reply.header("link", link)
  return reply
    .header("cache-control", "no-cache")
    .header("content-security-policy", policy)
    .sendFile(file === undefined ? "index.html" : `prerendered/${file}`)
}

/** A public page the build rendered to HTML (vite.config.ts): the app hydrates it instead of rendering it. */
interface PrerenderedPage {
  /** the route, without a trailing slash */
  readonly path: string
  /** the query parameter the page needs: without it the app goes elsewhere, so the plain page is sent */
  readonly needs?: string
  /** its file under prerendered/ */
  readonly file: string
  /** the site's name the page shows */
  readonly siteName: string
}

const stillFits = async (page: PrerenderedPage, site: SiteNow): Promise<boolean> =>
  site().then(
    (now) => !now.maintenance && now.siteName === page.siteName,
    () => false
  )

const routeOf = (pathname: string): string => (pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname)

const prerenderedFor = (pages: ReadonlyArray<PrerenderedPage>, pathname: string, query: string): PrerenderedPage | undefined => {
  const route = routeOf(pathname)
  const page = pages.find((candidate) => candidate.path === route)
  if (page === undefined) return undefined
  if (page.needs === undefined) return page
  return (new URLSearchParams(query).get(page.needs)?.trim() ?? "") === "" ? undefined : page
}

const FILE_NAME = /^[a-z0-9-]+\.html$/

/** The build's list of prerendered pages; none when it has none or it cannot be read. */
const readPrerendered = async (staticDir: string): Promise<ReadonlyArray<PrerenderedPage>> => {
  try {
    const listed: unknown = JSON.parse(await readFile(path.join(staticDir, "prerendered", "pages.json"), "utf8"))
    if (!Array.isArray(listed)) return []
    return listed.filter(
      (entry: Partial<PrerenderedPage>): entry is PrerenderedPage =>
        typeof entry.path === "string" &&
        typeof entry.file === "string" &&
        FILE_NAME.test(entry.file) &&
        typeof entry.siteName === "string" &&
        (entry.needs === undefined || typeof entry.needs === "string")
    )
  } catch {
    return []
  }
}

interface AppPageFacts {
  /** the Link header naming the app's chunks */
  readonly preloads: string | undefined
  /** a player page's: the player library alone */
  readonly playerPreloads: string | undefined
  /** the page's inline scripts, as the policy allows them: by hash (the prerendered pages have the same) */
  readonly inlineScripts: ReadonlyArray<string>
  readonly prerendered: ReadonlyArray<PrerenderedPage>
}

/** What the server tells of the app's page, read again only when a new build replaces index.html. */
type AppPage = (indexMtimeMs: number) => Promise<AppPageFacts>

// The build's own index.html (vite.config.ts inlines one script): not HTML from anyone else.
const INLINE_SCRIPT = /<script>([\s\S]*?)<\/script>/g

const inlineScriptHashes = (html: string): Array<string> =>
  [...html.matchAll(INLINE_SCRIPT)].map(
    (match) =>
      `'sha256-${createHash("sha256")
        .update(match[1] ?? "")
        .digest("base64")}'`
  )

function cachedPage(staticDir: string): AppPage {
  let cached: { mtimeMs: number; facts: Promise<AppPageFacts> } | undefined
  return (mtimeMs) => {
    if (cached?.mtimeMs !== mtimeMs) {
      const facts = Promise.all([
        appPreloadHeader(staticDir),
        appPreloadHeader(staticDir, PLAYER_LIBRARY),
        readFile(path.join(staticDir, "index.html"), "utf8").then(inlineScriptHashes, () => []),
        readPrerendered(staticDir)
      ]).then(([preloads, playerPreloads, inlineScripts, prerendered]) => ({ preloads, playerPreloads, inlineScripts, prerendered }))
      cached = { mtimeMs, facts }
    }
    return cached.facts
  }
}

/** Serves the built SPA and answers unknown page routes with its index.html; 404 JSON otherwise. */
export async function registerStaticSite(app: FastifyInstance, staticDir: string, options: StaticSiteOptions): Promise<void> {
  await app.register(fastifyStatic, {
    root: staticDir,
    index: false,
    dotfiles: "ignore",
    cacheControl: false,
    // the build writes .br and .gz twins of its text files (vite.config.ts)
    preCompressed: true,
    // The build may simply not exist yet; sendIndex explains that to whoever asks.
    suppressWarning: true,
    setHeaders: (reply, file) => {
      reply.header("cache-control", cacheControlFor(staticDir, file))
    }
  })

  // The build's source maps are for its developers, not for every visitor: refused before any
  // route, however the name is spelt or encoded.
  app.addHook("onRequest", (request, reply, done) => {
    // an answer from a callback hook ends the request there: no done()
    if (namesSourceMap(request.url)) void reply.code(404).send(failureBody(404, "Not found"))
    else done()
  })

  // Vite's fingerprinted files, the bulk of what a visit loads. The plugin's catch-all route reads
  // every directory on a file's path on each request, to refuse a name that reaches another file
  // on a case-insensitive disk; that took half of each asset's serving time. A name of one
  // segment of these characters stays inside assets/, so these are sent without that check.
  app.get("/assets/:name", (request, reply) => {
    const { name } = request.params as { readonly name: string }
    return ASSET_NAME.test(name) ? reply.sendFile(`assets/${name}`) : reply.callNotFound()
  })

  const page = cachedPage(staticDir)

  // A prerendered page's form sent by the browser itself, before the app had loaded, posts to the
  // page (AccountForm.tsx): it gets the page again, its body unread.
  const postedPage = async (request: FastifyRequest, reply: FastifyReply, pathname: string): Promise<boolean> => {
    const index = await stat(path.join(staticDir, "index.html")).catch(() => undefined)
    if (index?.isFile() !== true) return false
    const { prerendered } = await page(index.mtimeMs)
    if (!prerendered.some((candidate) => candidate.path === routeOf(pathname))) return false
    await reply.code(303).header("location", request.url).header("cache-control", "no-store").send()
    return true
  }
  // every other request goes on at once, without the promise an async hook costs; the API's calls
  // pay nothing for it
  app.addHook("onRequest", (request, reply, done) => {
    const pathname = request.method === "POST" ? (request.url.split("?", 1)[0] ?? "/") : undefined
    if (pathname === undefined || isReserved(pathname)) {
      done()
      return
    }
    postedPage(request, reply, pathname).then((answered) => {
      if (!answered) done()
    }, done)
  })
  // The static handler would refuse the root directory itself.
  app.get("/", async (request, reply) => sendIndex(request, reply, staticDir, options, page))

  app.setNotFoundHandler(async (request, reply) => {
    if (isPageRequest(request)) return sendIndex(request, reply, staticDir, options, page)
    return reply.code(404).send(failureBody(404, "Not found"))
  })
}
