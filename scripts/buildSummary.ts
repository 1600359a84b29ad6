/**
 * The line a build prints instead of one per file (vite.config.ts for the pages,
 * scripts/buildServer.ts for the server): where the output went, how many files and bytes, and how
 * long the command took. Warnings and errors are printed as they come, before it.
 */
import { readdir, stat } from "node:fs/promises"
import { join, relative } from "node:path"

export const formatSize = (bytes: number): string =>
  bytes >= 1_000_000 ? `${(bytes / 1_000_000).toFixed(1)} MB` : `${(bytes / 1000).toFixed(1)} kB`

async function filesUnder(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0
  let bytes = 0
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    files += 1
    bytes += (await stat(join(entry.parentPath, entry.name))).size
  }
  return { files, bytes }
}

/**
 * E.g. `server  build/server/  2 files, 3.1 MB  in 1.4 s`; `notes` go between the size and the
 * time. The time is the process's own, from its start, so it counts loading the tools as well.
 */
export async function printBuildSummary(what: string, dir: string, notes: ReadonlyArray<string> = []): Promise<void> {
  const { files, bytes } = await filesUnder(dir)
  const parts = [`${files} files, ${formatSize(bytes)}`, ...notes, `in ${(performance.now() / 1000).toFixed(1)} s`]
  process.stdout.write(`${what.padEnd(7)} ${`${relative(process.cwd(), dir) || "."}/`.padEnd(14)} ${parts.join(" · ")}\n`)
}
