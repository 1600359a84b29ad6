import { mkdir, readdir, readFile, rm, rmdir, writeFile } from "node:fs/promises"
import { dirname, join, posix, sep } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { isMachine } from "./flowDiagram.ts"
import { expectedFlowFiles, type FlowMachine } from "./flowPages.ts"

export const REPO_ROOT = fileURLToPath(new URL("..", import.meta.url))
export const MACHINES_DIR = "src/machines"
export const FLOWS_DIR = "docs/flows"

const toPosix = (path: string) => path.split(sep).join("/")
const byCodeUnit = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

async function filesUnder(dir: string): Promise<string[]> {
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true })
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => toPosix(join(entry.parentPath, entry.name).slice(dir.length + 1)))
      .sort(byCodeUnit)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return []
    throw error
  }
}

/** Imports every module under src/machines and keeps each export that is an XState machine. */
export async function loadFlowMachines(root = REPO_ROOT): Promise<FlowMachine[]> {
  const dir = join(root, MACHINES_DIR)
  const modules = (await filesUnder(dir)).filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))
  const seen = new Set<unknown>()
  const found: FlowMachine[] = []
  for (const file of modules) {
    const exports = (await import(pathToFileURL(join(dir, file)).href)) as Record<string, unknown>
    for (const exportName of Object.keys(exports).sort(byCodeUnit)) {
      const value = exports[exportName]
      // a machine imported and exported again belongs to the module that made it
      if (!isMachine(value) || seen.has(value)) continue
      seen.add(value)
      const feature = posix.dirname(file)
      found.push({ feature: feature === "." ? "" : feature, source: `${MACHINES_DIR}/${file}`, exportName, machine: value })
    }
  }
  return found
}

/** Every file under `dir`, by path relative to it. */
export async function readFlowFiles(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (const file of await filesUnder(dir)) files.set(file, await readFile(join(dir, file), "utf8"))
  return files
}

export interface FlowDrift {
  readonly stale: ReadonlyArray<string>
  readonly missing: ReadonlyArray<string>
  readonly extra: ReadonlyArray<string>
}

export function compareFlowFiles(expected: ReadonlyMap<string, string>, actual: ReadonlyMap<string, string>): FlowDrift {
  const paths = (keep: (path: string) => boolean, from: ReadonlyMap<string, string>) => [...from.keys()].filter(keep).sort(byCodeUnit)
  return {
    stale: paths((path) => actual.has(path) && actual.get(path) !== expected.get(path), expected),
    missing: paths((path) => !actual.has(path), expected),
    extra: paths((path) => !expected.has(path), actual)
  }
}

/** Empty when docs/flows is up to date; otherwise says which files differ and how to fix them. */
export function flowDriftMessage(drift: FlowDrift): string {
  const parts = (["stale", "missing", "extra"] as const)
    .filter((kind) => drift[kind].length > 0)
    .map((kind) => `${kind}: ${drift[kind].map((path) => `${FLOWS_DIR}/${path}`).join(", ")}`)
  return parts.length === 0 ? "" : `The flow diagrams are out of date (${parts.join("; ")}): run npm run flows`
}

/** Makes `dir` hold exactly `expected`, touching only files whose content changes. */
export async function writeFlowFiles(dir: string, expected: ReadonlyMap<string, string>): Promise<FlowDrift> {
  const drift = compareFlowFiles(expected, await readFlowFiles(dir))
  for (const path of [...drift.stale, ...drift.missing]) {
    await mkdir(dirname(join(dir, path)), { recursive: true })
    await writeFile(join(dir, path), expected.get(path) ?? "")
  }
  for (const path of drift.extra) {
    await rm(join(dir, path))
    // a feature folder whose last machine moved away goes too
    for (let folder = posix.dirname(path); folder !== "."; folder = posix.dirname(folder)) {
      if ((await readdir(join(dir, folder))).length > 0) break
      await rmdir(join(dir, folder))
    }
  }
  return drift
}

async function main(args: ReadonlyArray<string>): Promise<number> {
  const expected = expectedFlowFiles(await loadFlowMachines())
  const dir = join(REPO_ROOT, FLOWS_DIR)
  if (args.includes("--check")) {
    const message = flowDriftMessage(compareFlowFiles(expected, await readFlowFiles(dir)))
    console.log(message === "" ? `${FLOWS_DIR} is up to date` : message)
    return message === "" ? 0 : 1
  }
  const drift = await writeFlowFiles(dir, expected)
  const changed = drift.stale.length + drift.missing.length
  console.log(`${FLOWS_DIR}: ${expected.size - 1} diagrams and README.md; ${changed} written, ${drift.extra.length} removed`)
  return 0
}

if (import.meta.main) process.exitCode = await main(process.argv.slice(2))
