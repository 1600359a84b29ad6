import { mkdir, readFile, rm, writeFile } from "node:fs/promises"
import { join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { brotliCompressSync, gzipSync } from "node:zlib"
import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin"
import react from "@vitejs/plugin-react"
import { build as bundle } from "rolldown"
import { type Manifest, type Plugin, build as viteBuild } from "vite"
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

const escapeAttribute = (text: string): string =>
  text.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("<", "&lt;").replaceAll(">", "&gt;")

/** Vite's links to the entry's stylesheets in index.html, on lines of their own. */
const STYLESHEET_LINK = /^ *<link rel="stylesheet"[^>]*>$/gm

/** The stylesheets a chunk brings with it and with the chunks it imports statically. */
const stylesheetsOf = (manifest: Manifest, key: string, seen = new Set<string>()): Array<string> => {
  const chunk = manifest[key]
  if (chunk === undefined || seen.has(key)) return []
  seen.add(key)
  return [...(chunk.css ?? []), ...(chunk.imports ?? []).flatMap((imported) => stylesheetsOf(manifest, imported, seen))]
}

/** A chunk's file and those of the chunks it imports statically. */
const scriptsOf = (manifest: Manifest, key: string, seen = new Set<string>()): Array<string> => {
  const chunk = manifest[key]
  if (chunk === undefined || seen.has(key)) return []
  seen.add(key)
  return [chunk.file, ...(chunk.imports ?? []).flatMap((imported) => scriptsOf(manifest, imported, seen))]
}

/**
 * The public pages (scripts/prerenderPages.tsx) rendered into copies of index.html under
 * dist/prerendered/, with pages.json listing them for the server (staticSite.ts), which answers
 * those routes with them while the site runs under the name they were rendered with and is not in
 * maintenance. mountApp.tsx hydrates them. Each copy links the stylesheets of the app's
 * chunk and of its page's chunks, so the page is styled before any script has run; its root names
 * the site as the page does (data-prerendered), for the app to tell whether the page still fits. The pages are
 * rendered by a Node build of that file, made after the browser's build.
 */
const prerenderPublicPages = (): Plugin => {
  let root = process.cwd()
  let outDir = "dist"
  return {
    name: "streamhub:prerender-public-pages",
    apply: (_config, env) => env.command === "build" && env.isSsrBuild !== true,
    configResolved(config) {
      root = config.root
      outDir = resolve(config.root, config.build.outDir)
    },
    closeBundle: {
      order: "post",
      sequential: true,
      async handler() {
        const serverOut = join(root, "node_modules", ".cache", "prerender")
        await viteBuild({
          configFile: false,
          root,
          logLevel: "warn",
          plugins: [react(), vanillaExtractPlugin()],
          build: {
            ssr: "scripts/prerenderPages.tsx",
            outDir: serverOut,
            emptyOutDir: true,
            target: "node22",
            minify: false,
            rolldownOptions: { checks: { bundlerTimings: false } }
          }
        })
        const { prerenderPages } = (await import(
          pathToFileURL(join(serverOut, "prerenderPages.js")).href
        )) as typeof import("./scripts/prerenderPages.tsx")
        const manifest = JSON.parse(await readFile(join(outDir, ".vite", "manifest.json"), "utf8")) as Manifest
        const index = await readFile(join(outDir, "index.html"), "utf8")
        const pagesDir = join(outDir, "prerendered")
        await mkdir(pagesDir, { recursive: true })
        const rendered = await prerenderPages()
        for (const { page, html, title, siteName } of rendered) {
          // the page's own stylesheets ahead of the scripts: on HTTP/1.1's six connections a page
          // asks for, what is asked for first goes first, and the first paint waits for the stylesheets only
          const indexStylesheets = (index.match(STYLESHEET_LINK) ?? []).map((link) => link.trim())
          const stylesheets = [
            ...new Set([
              ...stylesheetsOf(manifest, "src/app/mountApp.tsx"),
              ...page.chunks.flatMap((chunk) => stylesheetsOf(manifest, chunk))
            ])
          ].filter((file) => !index.includes(`/${file}"`))
          const links = [...indexStylesheets, ...stylesheets.map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)]
          // the app's chunks, asked for after the stylesheets rather than once the entry has run
          const scripts = [...new Set(["src/app/mountApp.tsx", ...page.chunks].flatMap((chunk) => scriptsOf(manifest, chunk)))]
            .filter((file) => !index.includes(`/${file}"`))
            .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
          const pageHtml = index
            .replace(STYLESHEET_LINK, "")
            .replace(/<title>[^<]*<\/title>/, () => `<title>${title}</title>`)
            .replace('<script type="module"', () => `${links.join("\n    ")}\n    <script type="module"`)
            .replace("</head>", () => `  ${scripts.join("\n    ")}\n  </head>`)
            .replace(/\n\s*\n/g, "\n")
            .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="${escapeAttribute(siteName)}">${html}</div>`)
          if (!pageHtml.includes("data-prerendered")) throw new Error('index.html needs <div id="root"></div> for the prerendered pages')
          const file = join(pagesDir, page.file)
          await writeFile(file, pageHtml)
          await writeFile(`${file}.gz`, gzipSync(pageHtml, { level: 9 }))
          await writeFile(`${file}.br`, brotliCompressSync(pageHtml))
        }
        await writeFile(
          join(pagesDir, "pages.json"),
          JSON.stringify(rendered.map(({ page: { path, needs, file }, siteName }) => ({ path, needs, file, siteName })))
        )
        await rm(serverOut, { recursive: true, force: true })
      }
    }
  }
}

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
    prerenderPublicPages(),
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
      checks: { bundlerTimings: false },
      output: {
        codeSplitting: {
          // the libraries every page of the app runs on, in one file: one request, one cache entry
          // that outlives the app's own releases, and compressed as a whole
          groups: [
            {
              name: "libraries",
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|xstate|@xstate|effect|@vanilla-extract|use-sync-external-store)[\\/]/
            }
          ]
        }
      }
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
