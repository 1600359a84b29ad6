import { createHash } from "node:crypto"
import { utimes, writeFile } from "node:fs/promises"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { api } from "../../../src/domain/contract/api.ts"
import { CONTENT_SECURITY_POLICY, contentSecurityPolicy, originsOf } from "../../../src/server/http/securityHeaders.ts"
import { NOT_BUILT_MESSAGE } from "../../../src/server/http/staticSite.ts"
import { deleteStream, insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { dialects } from "../../support/dbHarness.ts"
import { INDEX_HTML, startTestServer, type TestServer, tableCounts } from "../../support/testServer.ts"

const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" }

const expectSecurityHeaders = (headers: Record<string, unknown>) => {
  expect(headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY)
  expect(headers["x-content-type-options"]).toBe("nosniff")
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin")
  expect(headers["x-frame-options"]).toBe("DENY")
  expect(headers["cross-origin-opener-policy"]).toBe("same-origin")
  expect(headers["cross-origin-resource-policy"]).toMatch(/^(same-origin|cross-origin)$/)
  expect(headers["permissions-policy"]).toMatch(/camera=\(\).*microphone=\(\).*geolocation=\(\)/)
}

describe("the origins a page may load media from", () => {
  it("are the distinct http(s) origins of absolute URLs; relative ones are the site's own", () => {
    expect(
      originsOf([
        "/live/a.m3u8",
        "http://a.example/x",
        "HTTP://A.example:80/y",
        null,
        undefined,
        "https://b.example:8443/z",
        "data:image/png;base64,x",
        "ftp://c.example/",
        "http://",
        "https://b.example:8443/q"
      ])
    ).toEqual(["http://a.example", "https://b.example:8443"])
  })
})

describe.each(dialects)("http behaviour ($name)", (dialect) => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(dialect)
  })
  afterAll(() => server.dispose())

  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ method: "GET", url, headers })

  it("sends strict security headers on every kind of response", async () => {
    for (const url of [
      "/api/maintenance",
      "/login",
      "/api/nope",
      "/assets/index-abc123.js",
      "/live/demo1/index.m3u8",
      "/posters/demo1.svg",
      "/nope.png"
    ]) {
      const response = await get(url, html)
      expectSecurityHeaders(response.headers)
      expect(response.headers["strict-transport-security"], url).toBeUndefined()
    }
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe-inline/)
  })

  it("lets the page load media from exactly the origins of the configured streams", async () => {
    const added = await insertStream(server.db.kysely, {
      title: "Imported",
      src: "http://iptv.example:8000/live/1.m3u8",
      src_sldp: "https://ll.example/1/ll.m3u8?token=x",
      image_location: "https://img.example/logo.png"
    })
    try {
      const policy = String((await get("/player?default=0", html)).headers["content-security-policy"])
      const directive = (name: string) => policy.split("; ").find((part) => part.startsWith(`${name} `)) ?? ""
      const origins = "http://iptv.example:8000 https://img.example https://ll.example"
      expect(directive("media-src")).toBe(`media-src 'self' blob: ${origins}`)
      expect(directive("connect-src")).toBe(`connect-src 'self' ${origins}`)
      expect(directive("img-src")).toBe(`img-src 'self' data: ${origins}`)
      // no scheme-wide allowance, and nothing more for scripts than the Cast sender's own folders
      expect(policy).not.toMatch(/ https?:(;| )/)
      expect(directive("script-src")).toBe(
        "script-src 'self' https://www.gstatic.com/cv/js/sender/ https://www.gstatic.com/cast/sdk/libs/sender/"
      )
      // the API's answers are not pages: they keep the fixed policy
      expect((await get("/api/maintenance")).headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY)
    } finally {
      await deleteStream(server.db.kysely, added.id)
    }
    expect((await get("/", html)).headers["content-security-policy"]).toBe(contentSecurityPolicy())
  })

  it("lets the page's own inline script run by its hash, and nothing else inline", async () => {
    const index = path.join(server.config.staticDir, "index.html")
    const script = "window.kickedOff=1"
    try {
      await writeFile(index, INDEX_HTML.replace("</head>", `<script>${script}</script></head>`))
      // a new build is told by its time stamp: one a second later
      await utimes(index, new Date(), new Date(Date.now() + 1000))
      const policy = String((await get("/player?default=0", html)).headers["content-security-policy"])
      const hash = createHash("sha256").update(script).digest("base64")
      expect(policy).toContain(`script-src 'self' 'sha256-${hash}' https://www.gstatic.com/cv/js/sender/`)
      expect(policy).not.toMatch(/unsafe-inline[^;]*;[^;]*script-src|script-src[^;]*unsafe-inline/)
      // the API keeps the fixed policy, which allows no inline script at all
      expect((await get("/api/maintenance")).headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY)
    } finally {
      await writeFile(index, INDEX_HTML)
      await utimes(index, new Date(), new Date(Date.now() + 2000))
    }
    expect((await get("/login", html)).headers["content-security-policy"]).toBe(CONTENT_SECURITY_POLICY)
  })

  it("caches nothing from the API, hashed assets forever and index.html never", async () => {
    expect((await get("/api/maintenance")).headers["cache-control"]).toBe("no-store")
    expect((await get("/api/openapi.json")).headers["cache-control"]).toBe("no-store")
    const asset = await get("/assets/index-abc123.js")
    expect(asset.statusCode).toBe(200)
    expect(asset.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
    expect((await get("/login", html)).headers["cache-control"]).toBe("no-cache")
  })

  it("answers client routes with index.html", async () => {
    for (const url of ["/", "/login", "/player?default=1", "/adminreports", "/register/?invite=abc"]) {
      const response = await get(url, html)
      expect(response.statusCode, url).toBe(200)
      expect(response.headers["content-type"]).toMatch(/^text\/html/)
      expect(response.body).toBe(INDEX_HTML)
    }
  })

  it("answers JSON 404 for unknown API routes, missing files and non-page requests", async () => {
    for (const [method, url, headers] of [
      ["GET", "/api/nope", html],
      ["POST", "/api/nope", {}],
      ["GET", "/api", html],
      ["GET", "/assets/missing.js", html],
      ["POST", "/login", html],
      ["GET", "/login", { accept: "application/json" }]
    ] as const) {
      const response = await server.app.inject({ method, url, headers })
      expect(response.statusCode, `${method} ${url}`).toBe(404)
      expect(response.headers["content-type"]).toMatch(/^application\/json/)
      expect(response.json()).toMatchObject({ success: false, status: 404 })
    }
  })

  it("publishes the OpenAPI document of the whole contract", async () => {
    const response = await get("/api/openapi.json")
    expect(response.statusCode).toBe(200)
    const document = response.json() as { openapi: string; paths: Record<string, Record<string, unknown>> }
    expect(document.openapi).toBe("3.1.0")
    for (const endpoint of Object.values(api)) {
      expect(document.paths[endpoint.path]?.[endpoint.method.toLowerCase()], endpoint.path).toBeDefined()
    }
  })

  it("lets other sites load only what a cast receiver needs (the live streams and posters), and serves no source maps", async () => {
    expect((await get("/login", html)).headers["cross-origin-resource-policy"]).toBe("same-origin")
    expect((await get("/api/maintenance")).headers["cross-origin-resource-policy"]).toBe("same-origin")
    expect((await get("/live/demo1/index.m3u8")).headers["cross-origin-resource-policy"]).toBe("cross-origin")
    expect((await get("/posters/demo1.svg")).headers["cross-origin-resource-policy"]).toBe("cross-origin")
    await writeFile(path.join(server.config.staticDir, "assets", "index-abc123.js.map"), '{"version":3}')
    const map = await get("/assets/index-abc123.js.map")
    expect(map.statusCode).toBe(404)
    expect(map.json()).toEqual({ success: false, status: 404, detail: "Not found" })
    for (const url of [
      "/assets/index-abc123.js.MAP",
      "/assets/index-abc123.js.m%61p",
      "/assets/index-abc123.js.map?x=1",
      "/Assets/index-abc123.js.Map"
    ]) {
      expect((await get(url)).statusCode, url).toBe(404)
    }
    expect((await get("/assets/index-abc123.js")).statusCode).toBe(200)
  })

  it("sends built assets by their own names, and nothing from outside the build", async () => {
    const outside = path.join(server.config.staticDir, "..", "outside-the-build.txt")
    await writeFile(outside, "not for visitors")
    const name = path.basename(outside)
    for (const url of [
      `/assets/..%2F..%2F${name}`,
      `/assets/%2e%2e%2f%2e%2e%2f${name}`,
      `/assets/..%5C..%5C${name}`,
      `/assets/.%2E/.%2E/${name}`,
      `/assets/%2E%2E`,
      `/assets/..`,
      "/assets/index-abc123.js%00.png"
    ]) {
      const response = await get(url)
      expect(response.body, url).not.toContain("not for visitors")
      // refused, or answered as an unknown page is (the app's index.html)
      expect(response.statusCode, url).toBeLessThan(500)
      if (response.statusCode === 200) expect(response.body, url).toBe(INDEX_HTML)
    }
    const brotli = await get("/assets/index-abc123.js", { "accept-encoding": "br" })
    expect(brotli.statusCode).toBe(200)
    expect(brotli.headers["cache-control"]).toBe("public, max-age=31536000, immutable")
  })

  it("lets only this site and Google's cast receivers read the live streams from script", async () => {
    const live = (origin: string) => get("/live/demo1/index.m3u8", { origin })
    expect((await live("https://www.gstatic.com")).headers["access-control-allow-origin"]).toBe("https://www.gstatic.com")
    expect((await live("http://localhost:8080")).headers["access-control-allow-origin"]).toBe("http://localhost:8080")
    const stranger = await live("https://evil.example")
    expect(stranger.headers["access-control-allow-origin"]).toBeUndefined()
    expect(stranger.headers.vary).toMatch(/Origin/)
    expect((await get("/api/maintenance", { origin: "https://www.gstatic.com" })).headers["access-control-allow-origin"]).toBeUndefined()
  })

  it("serves the demo live origin to a signed-in player and the channel posters to anyone", async () => {
    const stream = await insertStream(server.db.kysely, { title: "Origin check", src: "/live/demo1/index.m3u8" })
    await server.addUser({ email: "origin-viewer@example.com" })
    const token = await server.signIn("origin-viewer@example.com")
    const listed = (await server.call("streams", { token })).json() as { data: Array<{ id: number; src: string }> }
    const src = listed.data.find((entry) => entry.id === stream.id)?.src ?? ""
    const playlist = await get(src)
    expect(playlist.statusCode).toBe(200)
    expect(playlist.body).toMatch(/^#EXTM3U/)
    // without a grant, or for a channel there is none of, the origin tells nothing
    for (const url of ["/live/demo1/index.m3u8", "/live/nope/index.m3u8"]) {
      const refused = await get(url, html)
      expect(refused.statusCode, url).toBe(403)
      expect(refused.headers["content-type"]).toMatch(/^application\/json/)
    }
    await deleteStream(server.db.kysely, stream.id)
    const poster = await get("/posters/demo2.svg")
    expect(poster.headers["content-type"]).toMatch(/^image\/svg\+xml/)
    expect(poster.body).toContain("Demo Channel 2")
  })

  describe("bad requests", () => {
    const post = (url: string, payload: string, contentType = "application/json") =>
      server.app.inject({ method: "POST", url, headers: { "content-type": contentType }, payload })

    it("malformed JSON is 400 resultCode 19 and changes nothing", async () => {
      const before = await tableCounts(server.db)
      for (const payload of ['{"email":', "nope", '{"__proto__":']) {
        const response = await post("/api/users/login", payload)
        expect(response.statusCode).toBe(400)
        expect(response.json()).toEqual({ success: false, status: 400, resultCode: 19, detail: "Malformed JSON body" })
      }
      expect(await tableCounts(server.db)).toEqual(before)
    })

    it("an oversized body is 413 JSON", async () => {
      const response = await post("/api/users/login", JSON.stringify({ email: "a@b.co", password: "x".repeat(400_000) }))
      expect(response.statusCode).toBe(413)
      expect(response.json()).toEqual({ success: false, status: 413, detail: "Request body is too large" })
    })

    it("an unsupported content type is 415 JSON", async () => {
      const response = await post("/api/users/login", "email=a@b.co", "application/x-www-form-urlencoded")
      expect(response.statusCode).toBe(415)
      expect(response.json()).toMatchObject({ success: false, status: 415 })
    })

    it("a body-less call may still say it sends JSON", async () => {
      const logout = await server.app.inject({ method: "POST", url: "/api/users/logout", headers: { "content-type": "application/json" } })
      expect(logout.statusCode).toBe(403)
      expect(logout.json()).toEqual({ success: false, status: 403, detail: "Please sign in to continue." })
    })

    it("a URL the router cannot read is answered in the contract's failure shape, with the usual headers", async () => {
      const analytics = "/api/analytics/live/streamhub"
      for (const [url, status, detail] of [
        [`${analytics}/%E0%A4%A`, 400, "Malformed URL"],
        [`${analytics}/${"x".repeat(600)}`, 414, "Request URL is too long"]
      ] as const) {
        const response = await post(url, "{}")
        expect(response.statusCode, url).toBe(status)
        expect(response.json()).toEqual({ success: false, status, ...(status === 400 ? { resultCode: 19 } : {}), detail })
        expectSecurityHeaders(response.headers)
        expect(response.headers["cache-control"]).toBe("no-store")
      }
    })

    it("a missing body where one is needed is 400", async () => {
      const response = await server.app.inject({ method: "POST", url: "/api/users/login" })
      expect(response.statusCode).toBe(400)
      expect(response.json()).toMatchObject({ resultCode: 19, detail: "Expected a JSON object as the request body" })
    })
  })
})

describe("deployment variants", () => {
  const [sqlite] = dialects
  if (sqlite === undefined) throw new Error("no database dialect available")

  it("explains how to build when dist/index.html is missing", async () => {
    const server = await startTestServer(sqlite, { built: false })
    try {
      const response = await server.app.inject({ method: "GET", url: "/login", headers: html })
      expect(response.statusCode).toBe(503)
      expect(response.headers["content-type"]).toMatch(/^text\/plain/)
      expect(response.body).toBe(NOT_BUILT_MESSAGE)
      expect(response.body).toContain("npm run build")
      expect((await server.call("maintenance")).statusCode).toBe(200)
    } finally {
      await server.dispose()
    }
  })

  it("sends HSTS only when the public URL is https", async () => {
    const server = await startTestServer(sqlite, { publicUrl: "https://tv.example.com" })
    try {
      const response = await server.app.inject({ method: "GET", url: "/api/maintenance" })
      expect(response.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains")
    } finally {
      await server.dispose()
    }
  })
})
