import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import type { Manifest } from "vite"
import { describe, expect, it } from "vitest"
import { root } from "../../support/staticGraph.ts"

/**
 * What the script of /login may weigh, gzipped: past it, the form is usable later on a slow
 * connection. Some 137 KB of it are the libraries (React's DOM renderer, the router, the state
 * machines and the schema library that decodes every answer), in one file; the API contract
 * beyond sign-in and the signed-in frame load with the first page that needs them.
 */
const BUDGET_BYTES = 170 * 1000

const dist = join(root, "dist")
const manifestFile = join(dist, ".vite", "manifest.json")

/** A chunk's file and those of every chunk it imports statically, each once. */
const closure = (manifest: Manifest, key: string, files = new Set<string>(), seen = new Set<string>()): Set<string> => {
  const chunk = manifest[key]
  if (chunk === undefined || seen.has(key)) return files
  seen.add(key)
  files.add(chunk.file)
  for (const imported of chunk.imports ?? []) closure(manifest, imported, files, seen)
  return files
}

describe("the script /login loads, as built (npm run build)", () => {
  it(`stays within ${BUDGET_BYTES / 1000} KB gzip: the entry, the app it mounts at once, and what they import`, () => {
    if (!existsSync(manifestFile)) throw new Error(`${manifestFile} is missing: run npm run build first`)
    const manifest = JSON.parse(readFileSync(manifestFile, "utf8")) as Manifest
    // sign-in is in the app's chunk (appRoutes.tsx), which the entry imports at once off a player page
    expect(manifest["index.html"]?.dynamicImports).toContain("src/app/mountApp.tsx")
    const files = closure(manifest, "src/app/mountApp.tsx", closure(manifest, "index.html"))
    const gzipBytes = [...files].reduce((sum, file) => sum + gzipSync(readFileSync(join(dist, file)), { level: 9 }).length, 0)
    // the other features' endpoints and their schemas are not the sign-in page's to load
    // (contract/api.ts, the whole contract, is a chunk the app imports when a feature loads)
    const contract = Object.values(manifest).find((chunk) => chunk.name === "api" && chunk.src === undefined)?.file
    expect(manifest["src/app/mountApp.tsx"]?.dynamicImports).toContain(`_${contract?.replace(/^assets\//, "")}`)
    expect(files).not.toContain(contract)
    console.log(`/login loads ${files.size} script files, ${(gzipBytes / 1000).toFixed(1)} KB gzip`)
    expect(gzipBytes).toBeLessThanOrEqual(BUDGET_BYTES)
  })
})
