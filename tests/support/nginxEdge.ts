import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { freePort } from "./e2eHarness.ts"
import { SERVER_START_MS } from "./timeouts.ts"

/** The edge configuration operators install, exactly as the project ships it. */
export const EDGE_CONF = fileURLToPath(new URL("../../deploy/nginx/streamhub-edge.conf", import.meta.url))

export const nginxPath = (): string | undefined => {
  for (const candidate of ["/usr/sbin/nginx", "/usr/bin/nginx"]) {
    if (spawnSync(candidate, ["-v"]).status === 0) return candidate
  }
  return undefined
}

/** One line of the edge's access log: what was asked, what it answered, and whether its cache had it. */
export interface EdgeRequest {
  readonly uri: string
  readonly status: number
  /** HIT, MISS, … or "-" when the cache was not asked */
  readonly cache: string
}

export interface Edge {
  readonly url: string
  /** every request the edge has logged so far */
  requests(): Promise<Array<EdgeRequest>>
  stop(): Promise<void>
}

/**
 * Debian's nginx running the shipped edge configuration in front of `instances`, on a free port
 * of 127.0.0.1, with its cache, logs and temporary files in a folder of its own.
 */
export async function startEdge(instances: ReadonlyArray<string>): Promise<Edge> {
  const binary = nginxPath()
  if (binary === undefined) throw new Error("nginx is missing: apt-get install nginx (bash .ci/run installs it)")
  const dir = await mkdtemp(join(tmpdir(), "streamhub-edge-"))
  // nginx's workers run as an unprivileged user when it is started by root: they write the cache
  await chmod(dir, 0o755)
  for (const sub of ["cache", "temp"]) {
    await mkdir(join(dir, sub))
    await chmod(join(dir, sub), 0o777)
  }
  const port = await freePort()
  const shipped = await readFile(EDGE_CONF, "utf8")
  const servers = instances.map((url) => `    server ${new URL(url).host};`).join("\n")
  const edge = shipped
    .replace(/ {4}server 127\.0\.0\.1:8081;\n {4}server 127\.0\.0\.1:8082;/, servers)
    .replace("/var/cache/nginx/streamhub", join(dir, "cache"))
    .replace("listen 80;", `listen 127.0.0.1:${port};`)
  if (edge.includes("8081") || !edge.includes(join(dir, "cache")) || !edge.includes(`${port}`)) {
    throw new Error("the shipped edge configuration no longer has the lines the test replaces")
  }
  await writeFile(join(dir, "streamhub-edge.conf"), edge)
  const temp = join(dir, "temp")
  await writeFile(
    join(dir, "nginx.conf"),
    `daemon off;
worker_processes 1;
pid ${join(dir, "nginx.pid")};
error_log ${join(dir, "error.log")} warn;
events { worker_connections 1024; }
http {
  log_format edge '$uri $status $upstream_cache_status';
  access_log ${join(dir, "access.log")} edge;
  client_body_temp_path ${temp}/body;
  proxy_temp_path ${temp}/proxy;
  fastcgi_temp_path ${temp}/fastcgi;
  uwsgi_temp_path ${temp}/uwsgi;
  scgi_temp_path ${temp}/scgi;
  include ${join(dir, "streamhub-edge.conf")};
}
`
  )
  const child: ChildProcess = spawn(binary, ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")], {
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
  const url = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await exited
    }
    await rm(dir, { recursive: true, force: true })
  }
  const deadline = Date.now() + SERVER_START_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      const log = await readFile(join(dir, "error.log"), "utf8").catch(() => "")
      await stop()
      throw new Error(`nginx exited ${child.exitCode}:\n${output}\n${log}`)
    }
    try {
      await fetch(`${url}/api/maintenance`)
      break
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  return {
    url,
    async requests() {
      const log = await readFile(join(dir, "access.log"), "utf8").catch(() => "")
      return log
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => {
          const [uri = "", status = "0", cache = "-"] = line.split(" ")
          return { uri, status: Number(status), cache }
        })
    },
    stop
  }
}
