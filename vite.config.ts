import { resolve } from "node:path"
import { gzipSync } from "node:zlib"
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin"
import react from "@vitejs/plugin-react"
import { build as bundle } from "rolldown"
import type { Plugin } from "vite"
import { compression } from "vite-plugin-compression2"
import { defineConfig } from "vitest/config"
import { formatSize, printBuildSummary } from "./scripts/buildSummary.ts"
import { HOOK_TIMEOUT_MS, POLL_INTERVAL_MS, TEST_TIMEOUT_MS, WAIT_MS } from "./tests/support/timeouts.ts"

/**
 * Puts src/app/kickoff.ts into index.html as an inline script, so a player page's first calls leave
 * while the page is still being parsed. The server allows it by its hash (staticSite.ts). It goes
 * before the stylesheet, which would hold an inline script back until it had loaded.
 */
const inlineKickoff = (): Plugin => ({
  name: "streamhub:inline-kickoff",
  async transformIndexHtml(html) {
    const { output } = await bundle({
      input: "src/app/kickoff.ts",
      write: false,
      logLevel: "warn",
      output: { format: "iife", minify: true }
    })
    if (!html.includes("</title>")) throw new Error("index.html needs a <title> for the kick-off script to follow")
    return html.replace("</title>", `</title>\n    <script>${output[0].code.trim()}</script>`)
  }
})

/**
 * `vite build` prints one line (files, bytes, the entry's gzip size, time) instead of Vite's table
 * of some 250 files; warnings and errors still show. `vite build --logLevel info` brings the table
 * back. Last of the plugins, so it counts the compressed twins too.
 */
const buildSummary = (): Plugin => {
  let outDir = "dist"
  let entry = ""
  return {
    name: "streamhub:build-summary",
    apply: "build",
    enforce: "post",
    config: (config) => (config.logLevel === undefined ? { logLevel: "warn", build: { reportCompressedSize: false } } : {}),
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    generateBundle(_options, bundle) {
      for (const file of Object.values(bundle)) {
        if (file.type === "chunk" && file.isEntry) entry = `entry ${file.fileName} ${formatSize(gzipSync(file.code).length)} gzip`
      }
    },
    closeBundle: {
      order: "post",
      sequential: true,
      handler: () => printBuildSummary("app", outDir, ["source maps and .br/.gz twins included", entry])
    }
  }
}

export default defineConfig({
  plugins: [
    react(),
    inlineKickoff(),
    vanillaExtractPlugin(),
    // brotli and gzip twins of every text asset, served as they are by the server (preCompressed)
    compression({
      algorithms: ["brotliCompress", "gzip"],
      include: /\.(m?js|css|html|svg|json|webmanifest)$/,
      threshold: 512,
      skipIfLargerOrEqual: true
    }),
    buildSummary()
  ],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // maps for whoever debugs the build, never served (staticSite.ts refuses .map) nor named in the code
    sourcemap: "hidden",
    // the server reads it to name the app's chunks in a Link header (staticSite.ts)
    manifest: true,
    target: "es2022",
    rolldownOptions: {
      // how long each plugin took is the machine's news, not the build's: a busy machine printed it every time
      checks: { bundlerTimings: false }
    }
  },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/live": "http://127.0.0.1:8080",
      "/time.json": "http://127.0.0.1:8080",
      "/posters": "http://127.0.0.1:8080"
    }
  },
  test: {
    // every wait the suite has is sized in tests/support/timeouts.ts, for a busy machine
    expect: { poll: { timeout: WAIT_MS, interval: POLL_INTERVAL_MS } },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["tests/unit/**/*.test.ts", "tests/machines/**/*.test.ts"],
          environment: "node",
          // some cruise or parse the whole of src: seconds on a busy machine
          testTimeout: TEST_TIMEOUT_MS.unit,
          hookTimeout: HOOK_TIMEOUT_MS.unit
        }
      },
      {
        extends: true,
        test: {
          name: "ui",
          include: ["tests/ui/**/*.test.tsx", "tests/models/**/*.test.tsx"],
          environment: "jsdom",
          setupFiles: ["tests/support/uiSetup.ts"],
          testTimeout: TEST_TIMEOUT_MS.ui,
          hookTimeout: HOOK_TIMEOUT_MS.ui
        }
      },
      {
        extends: true,
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          environment: "node",
          testTimeout: TEST_TIMEOUT_MS.server,
          hookTimeout: HOOK_TIMEOUT_MS.server
        }
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          // Each file drives its own server and Chromium, which wait on each other more than they
          // compute: two at a time on two cores, no more.
          maxWorkers: 2,
          testTimeout: TEST_TIMEOUT_MS.e2e,
          hookTimeout: HOOK_TIMEOUT_MS.e2e
        }
      }
    ]
  }
})
