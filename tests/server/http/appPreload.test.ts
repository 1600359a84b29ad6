import { mkdir, writeFile } from "node:fs/promises"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sqliteHarness } from "../../support/dbHarness.ts"
import { startTestServer, type TestServer } from "../../support/testServer.ts"

// the shape Vite's build manifest has (vite.config.ts: build.manifest)
const MANIFEST = {
  "index.html": { file: "assets/index-a1.js", isEntry: true, dynamicImports: ["src/app/mountApp.tsx"] },
  "src/app/mountApp.tsx": {
    file: "assets/mountApp-b2.js",
    isDynamicEntry: true,
    imports: ["index.html", "_react-c3.js"],
    dynamicImports: ["src/ui/player/PlayerView.tsx"],
    css: ["assets/mountApp-d4.css"]
  },
  "_react-c3.js": { file: "assets/react-c3.js", imports: ["index.html"] },
  "src/ui/player/PlayerView.tsx": { file: "assets/PlayerView-e5.js", isDynamicEntry: true },
  "node_modules/hls.js/dist/hls.light.min.mjs": { file: "assets/hls.light.min-f6.mjs", src: "node_modules/hls.js/dist/hls.light.min.mjs" }
}

describe("the app page's preload header", () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer(sqliteHarness)
    await mkdir(path.join(server.config.staticDir, ".vite"))
    await writeFile(path.join(server.config.staticDir, ".vite", "manifest.json"), JSON.stringify(MANIFEST))
  })
  afterAll(() => server.dispose())

  const page = (url: string) => server.app.inject({ method: "GET", url, headers: { accept: "text/html" } })

  it("names the app's chunks and styles, not the entry the page loads itself nor other pages' chunks", async () => {
    for (const url of ["/", "/login", "/stream-schedule?day=2"]) {
      expect((await page(url)).headers.link).toBe(
        "</assets/mountApp-b2.js>; rel=modulepreload; crossorigin, </assets/react-c3.js>; rel=modulepreload; crossorigin, " +
          "</assets/mountApp-d4.css>; rel=preload; as=style; crossorigin"
      )
    }
  })

  it("names only the player library on player pages, which start their stream first and the app after", async () => {
    for (const url of ["/player?default=1", "/playersldp"]) {
      expect((await page(url)).headers.link).toBe("</assets/hls.light.min-f6.mjs>; rel=modulepreload; crossorigin")
    }
  })

  it("keeps the build's manifest private", async () => {
    expect((await server.app.inject({ method: "GET", url: "/.vite/manifest.json" })).statusCode).toBe(404)
  })
})
