import { type ChildProcess, spawn } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import pg from "pg"
import { freePort, SERVER_ENV, SERVER_NODE_FLAGS } from "../support/e2eHarness.ts"

const root = join(import.meta.dirname, "..", "..")
// both plain JavaScript, so neither side loads Node's TypeScript stripper (see processProbe.mjs)
const PROBE = join(import.meta.dirname, "processProbe.mjs")
/** The built server (`npm run build`), or the bundle BENCH_SERVER names, e.g. a copy of another commit's build to compare. */
export const OUR_SERVER = process.env.BENCH_SERVER ?? join(root, "build/server/main.js")
export const BARE_SERVER = join(import.meta.dirname, "bareApi.mjs")

/** What processProbe.mjs answers. */
export interface ProbeReading {
  readonly rssMb: number
  readonly heapMb: number
  readonly heapTotalMb: number
  readonly externalMb: number
  readonly cpuMs: number
  readonly loopMaxMs: number
  readonly loopP99Ms: number
}

export interface ProbeRequest {
  readonly id: number
  readonly reset: boolean
}

export interface BenchServer {
  readonly url: string
  readonly pid: number
  /** ms from spawn to the first good answer */
  readonly startMs: number
  /** `reset: false` reads without starting a new stretch for the event-loop figures */
  probe(options?: { reset?: boolean }): Promise<ProbeReading>
  stop(): Promise<void>
}

/** Starts `script` as a server process with the probe preloaded; resolves once it answers. */
export async function startBenchServer(script: string, env: Record<string, string>): Promise<BenchServer> {
  const port = await freePort()
  const started = performance.now()
  // ours runs as `npm start` runs it (plus BENCH_NODE_FLAGS, e.g. --cpu-prof to profile it); the baseline with Node's defaults
  const flags = script === OUR_SERVER ? [...SERVER_NODE_FLAGS, ...(process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean)] : []
  const child: ChildProcess = spawn(process.execPath, [...flags, "--import", PROBE, script], {
    cwd: root,
    env: { ...(script === OUR_SERVER ? SERVER_ENV : {}), ...process.env, HOST: "127.0.0.1", LOG_LEVEL: "warn", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe", "ipc"]
  })
  let log = ""
  child.stdout?.on("data", (chunk: Buffer) => (log += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (log += chunk.toString()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    const exited = new Promise((resolve) => child.once("exit", resolve))
    child.kill("SIGTERM")
    await exited
  }
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${script} exited early:\n${log}`)
    const ok = await fetch(`${url}/api/maintenance`).then(
      (response) => response.ok,
      () => false
    )
    if (ok) {
      const startMs = performance.now() - started
      let nextId = 0
      const probe = ({ reset = true } = {}) =>
        new Promise<ProbeReading>((resolve) => {
          const request: ProbeRequest = { id: nextId++, reset }
          const answer = (message: unknown) => {
            const reply = message as { id: number; reading: ProbeReading }
            if (reply.id !== request.id) return
            child.off("message", answer)
            resolve(reply.reading)
          }
          child.on("message", answer)
          child.send(request)
        })
      return { url, pid: child.pid ?? 0, startMs, probe, stop }
    }
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await stop()
  throw new Error(`${script} did not answer within 60 s:\n${log}`)
}

/** Where a bench server keeps its data: a temp dir, and with PostgreSQL a schema of its own. */
export interface ScratchDatabase {
  readonly dataDir: string
  readonly databaseUrl: string | undefined
  /** DATA_DIR, and DATABASE_URL with PostgreSQL */
  readonly env: Readonly<Record<string, string>>
  /** Removes the temp dir and drops the schema. */
  dispose(): Promise<void>
}

export async function scratchDatabase(postgresUrl: string | undefined): Promise<ScratchDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), "streamhub-bench-"))
  let databaseUrl: string | undefined
  let schema: string | undefined
  if (postgresUrl !== undefined) {
    schema = `bench_${process.pid}_${Date.now()}`
    const url = new URL(postgresUrl)
    url.searchParams.set("schema", schema)
    databaseUrl = url.toString()
  }
  return {
    dataDir,
    databaseUrl,
    env: { DATA_DIR: dataDir, ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }) },
    async dispose() {
      await rm(dataDir, { recursive: true, force: true })
      if (postgresUrl !== undefined && schema !== undefined) {
        const client = new pg.Client({ connectionString: postgresUrl })
        await client.connect()
        await client.query(`drop schema if exists ${schema} cascade`)
        await client.end()
      }
    }
  }
}
