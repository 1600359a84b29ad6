import { readFile } from "node:fs/promises"
import path from "node:path"

interface ManifestChunk {
  readonly file: string
  readonly imports?: ReadonlyArray<string>
  readonly css?: ReadonlyArray<string>
}

/** The app's module, which the page's entry imports on every page; a player page imports it once its stream has started (src/app/main.tsx). */
export const APP_MODULE = "src/app/mountApp.tsx"
/** The player library a player page's entry imports first (its `?url` import is in src/adapters/media/hlsLibrary.ts). */
export const PLAYER_LIBRARY = "node_modules/hls.js/dist/hls.light.min.mjs"

/**
 * A `Link` header naming the chunks of `module` and what it imports, so the browser fetches them
 * alongside the page's small entry instead of after it: one round trip less before a page paints.
 * The app's for most pages; a player page's names only the player library, since there the stream
 * starts first and the app may wait (see src/app/main.tsx). Undefined when the build has no
 * manifest (vite.config.ts writes one).
 */
export async function appPreloadHeader(staticDir: string, module: string = APP_MODULE): Promise<string | undefined> {
  const text = await readFile(path.join(staticDir, ".vite", "manifest.json"), "utf8").catch(() => undefined)
  if (text === undefined) return undefined
  let manifest: Record<string, ManifestChunk>
  try {
    manifest = JSON.parse(text) as Record<string, ManifestChunk>
  } catch {
    return undefined
  }
  const scripts = new Set<string>()
  const styles = new Set<string>()
  const visit = (key: string) => {
    const chunk = manifest[key]
    // index.html is the entry the page already loads
    if (chunk === undefined || key === "index.html" || scripts.has(chunk.file)) return
    scripts.add(chunk.file)
    for (const css of chunk.css ?? []) styles.add(css)
    for (const imported of chunk.imports ?? []) visit(imported)
  }
  visit(module)
  if (scripts.size === 0) return undefined
  return [
    ...[...scripts].map((file) => `</${file}>; rel=modulepreload; crossorigin`),
    ...[...styles].map((file) => `</${file}>; rel=preload; as=style; crossorigin`)
  ].join(", ")
}
