/**
 * The XMLTV import at scale: a generated file of 100,000 programmes imported as `guide:import
 * --file` does, against a bare saxes pass over the same file (read and decoded the same way, no
 * handlers) measured in the same run. Each run is a process of its own, so its memory figures are
 * its own: time, programmes per second and the peak growth of RSS and of the JS heap, sampled
 * every 10 ms and at every chunk.
 */
import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { writeGuideFile } from "./guideFile.ts"
import { median, row } from "./stats.ts"

export interface GuideImportBenchOptions {
  readonly programmes: number
  readonly channels: number
  readonly runs: number
  /** Also import into PostgreSQL, each run in a schema of its own there. */
  readonly postgresUrl?: string | undefined
}

interface Probe {
  readonly ms: number
  readonly programmes: number
  readonly rssGrowthMb: number
  readonly heapGrowthMb: number
}

const probeScript = join(import.meta.dirname, "guideImportProbe.ts")

function probe(args: ReadonlyArray<string>): Probe {
  const run = spawnSync(process.execPath, [probeScript, ...args], { encoding: "utf8" })
  if (run.status !== 0) throw new Error(`guide import probe failed:\n${run.stderr}`)
  return JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}") as Probe
}

async function dropSchema(url: string, schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`drop schema if exists ${schema} cascade`)
  } finally {
    await client.end()
  }
}

async function importRun(file: string, postgresUrl: string | undefined): Promise<Probe> {
  const dataDir = await mkdtemp(join(tmpdir(), "streamhub-guide-bench-"))
  const schema = `bench_${randomBytes(5).toString("hex")}`
  const databaseUrl = postgresUrl === undefined ? undefined : `${postgresUrl}${postgresUrl.includes("?") ? "&" : "?"}schema=${schema}`
  try {
    return probe([
      "--mode",
      "import",
      "--file",
      file,
      "--data-dir",
      dataDir,
      ...(databaseUrl === undefined ? [] : ["--database-url", databaseUrl])
    ])
  } finally {
    await rm(dataDir, { recursive: true, force: true })
    if (postgresUrl !== undefined) await dropSchema(postgresUrl, schema)
  }
}

const mb = (value: number) => value.toFixed(1)
const thousands = (value: number) => Math.round(value).toLocaleString("en-US")

export async function benchGuideImport(options: GuideImportBenchOptions): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), "streamhub-guide-file-"))
  try {
    const file = join(dir, "guide.xml")
    const bytes = await writeGuideFile(file, options)
    const databases: Array<{ name: string; url: string | undefined }> = [
      { name: "SQLite", url: undefined },
      ...(options.postgresUrl === undefined ? [] : [{ name: "PostgreSQL", url: options.postgresUrl }])
    ]
    const bare: Array<Probe> = []
    const imports = new Map(databases.map((db) => [db.name, [] as Array<Probe>]))
    for (let run = 0; run < options.runs; run += 1) {
      // alternating keeps drift in machine load from favouring one side
      bare.push(probe(["--mode", "saxes", "--file", file]))
      for (const db of databases) imports.get(db.name)?.push(await importRun(file, db.url))
      process.stdout.write(".")
    }
    process.stdout.write("\n")

    const baseMs = median(bare.map((p) => p.ms))
    console.log(
      `XMLTV import: ${thousands(options.programmes)} programmes on ${options.channels} channels, ${mb(bytes / 1024 / 1024)} MB, n=${options.runs}`
    )
    console.log(row("", ["median", "best", "worst"]))
    console.log(
      row("  bare saxes pass: time (ms)", [
        thousands(baseMs),
        thousands(Math.min(...bare.map((p) => p.ms))),
        thousands(Math.max(...bare.map((p) => p.ms)))
      ])
    )
    console.log(
      row("    peak RSS growth (MB)", [
        mb(median(bare.map((p) => p.rssGrowthMb))),
        mb(Math.min(...bare.map((p) => p.rssGrowthMb))),
        mb(Math.max(...bare.map((p) => p.rssGrowthMb)))
      ])
    )
    console.log(
      row("    peak heap growth (MB)", [
        mb(median(bare.map((p) => p.heapGrowthMb))),
        mb(Math.min(...bare.map((p) => p.heapGrowthMb))),
        mb(Math.max(...bare.map((p) => p.heapGrowthMb)))
      ])
    )
    for (const db of databases) {
      const runs = imports.get(db.name) ?? []
      const times = runs.map((p) => p.ms)
      const rates = runs.map((p) => p.programmes / (p.ms / 1000))
      console.log(
        row(`  import into ${db.name}: time (ms)`, [thousands(median(times)), thousands(Math.min(...times)), thousands(Math.max(...times))])
      )
      console.log(
        row("    programmes per second", [thousands(median(rates)), thousands(Math.max(...rates)), thousands(Math.min(...rates))])
      )
      console.log(
        row("    peak RSS growth (MB)", [
          mb(median(runs.map((p) => p.rssGrowthMb))),
          mb(Math.min(...runs.map((p) => p.rssGrowthMb))),
          mb(Math.max(...runs.map((p) => p.rssGrowthMb)))
        ])
      )
      console.log(
        row("    peak heap growth (MB)", [
          mb(median(runs.map((p) => p.heapGrowthMb))),
          mb(Math.min(...runs.map((p) => p.heapGrowthMb))),
          mb(Math.max(...runs.map((p) => p.heapGrowthMb)))
        ])
      )
      console.log(row("    ratio import / bare saxes", [(median(times) / baseMs).toFixed(2), "", ""]))
    }
    console.log("  targets: an import under 5,000 ms, with memory growing by under 50 MB")
    console.log()
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}
