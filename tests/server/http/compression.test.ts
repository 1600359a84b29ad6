import { writeFile } from "node:fs/promises"
import path from "node:path"
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { insertStream } from "../../../src/server/streams/streamsRepo.ts"
import { sqliteHarness } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

describe("compression", () => {
  let server: TestServer
  let token: string
  const script = `export const big = ${JSON.stringify("let us stream ".repeat(400))}\n`

  beforeAll(async () => {
    server = await startTestServer(sqliteHarness)
    const file = path.join(server.config.staticDir, "assets", "big-abc123.js")
    await writeFile(file, script)
    await writeFile(`${file}.br`, brotliCompressSync(script))
    await writeFile(`${file}.gz`, gzipSync(script))
    await server.addUser({ email: "viewer@example.com" })
    token = await server.signIn("viewer@example.com")
    for (let n = 0; n < 30; n += 1) {
      await insertStream(server.db.kysely, { title: `Channel number ${n} with a long title`, src: `/live/ch${n}/index.m3u8` })
    }
  })
  afterAll(() => server.dispose())

  it("serves the build's brotli or gzip twin to a browser that takes it, and the file itself otherwise", async () => {
    const get = (encoding?: string) =>
      server.app.inject({
        method: "GET",
        url: "/assets/big-abc123.js",
        headers: encoding === undefined ? {} : { "accept-encoding": encoding }
      })
    const br = await get("gzip, deflate, br")
    expect(br.headers["content-encoding"]).toBe("br")
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script)
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    const gz = await get("gzip")
    expect(gz.headers["content-encoding"]).toBe("gzip")
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script)
    const plain = await get()
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(plain.payload).toBe(script)
    expect(br.headers["cache-control"]).toBe(plain.headers["cache-control"])
  })

  it("compresses JSON answers over 1 KB, keeping the security headers", async () => {
    const call = (encoding: string) =>
      server.app.inject({ method: "GET", url: "/api/streams/all", headers: { token, "accept-encoding": encoding } })
    const plain = await call("identity")
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(plain.payload.length).toBeGreaterThan(1024)
    const br = await call("br, gzip")
    expect(br.headers["content-encoding"]).toBe("br")
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(plain.json())
    expect(br.rawPayload.length).toBeLessThan(plain.payload.length / 3)
    expect(br.headers["x-content-type-options"]).toBe("nosniff")
    expect(br.headers["content-security-policy"]).toBe(plain.headers["content-security-policy"])
    const gz = await call("gzip")
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(plain.json())
  })

  it("leaves small answers as they are", async () => {
    const small = await server.app.inject({ method: "GET", url: "/api/maintenance", headers: { "accept-encoding": "br, gzip" } })
    expect(small.headers["content-encoding"]).toBeUndefined()
    expect(small.json()).toMatchObject({ maintenanceMode: false })
  })
})
