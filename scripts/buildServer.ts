/**
 * Bundles the server into build/server: one file to load instead of the ~1,500 modules of its
 * sources and packages, which halves a cold start and the memory the loaded code holds. The
 * folder sits as deep as src/server, so paths the server finds from its own location (the
 * build, the demo media) are the same from either. `npm run serve` runs the bundle; the sources
 * still run as they are (`node src/server/main.ts`) for the CLI and the tests that need them.
 */
import { rm } from "node:fs/promises"
import { join } from "node:path"
import { build } from "rolldown"
import { printBuildSummary } from "./buildSummary.ts"

const root = join(import.meta.dirname, "..")
export const SERVER_BUILD = join(root, "build", "server")

export async function buildServer(): Promise<void> {
  await rm(SERVER_BUILD, { recursive: true, force: true })
  await build({
    input: {
      main: join(root, "src/server/main.ts"),
      // Piscina starts it by path, in threads of its own
      argon2Worker: join(root, "src/server/account/argon2Worker.ts")
    },
    platform: "node",
    // piscina finds its own worker script next to its sources; pg-native is pg's optional binding
    external: [/^node:/, "piscina", "pg-native"],
    logLevel: "warn",
    output: {
      dir: SERVER_BUILD,
      format: "esm",
      entryFileNames: "[name].js",
      chunkFileNames: "[name].js",
      minify: true,
      // stack traces keep the sources' function names
      keepNames: true,
      sourcemap: false,
      // ASCII only: Node reads a file of one-byte characters into a one-byte string, quicker to
      // decode at every start and half the memory of the two-byte one a single other character makes
      charset: "ascii"
    }
  })
}

if (import.meta.main) {
  await buildServer()
  await printBuildSummary("server", SERVER_BUILD)
}
