import { type ChildProcess, spawn, spawnSync } from "node:child_process"
import { mkdtemp, readFile, rm } from "node:fs/promises"
import { createServer, type Server, type ServerResponse } from "node:http"
import { tmpdir } from "node:os"
import { join, normalize } from "node:path"
import { WAIT_MS } from "./timeouts.ts"

export const hasFfmpeg = (): boolean => spawnSync("ffmpeg", ["-version"]).status === 0

/** How ffmpeg packages the live channel: MPEG-TS segments, or fMP4 in one growing file addressed by byte ranges. */
export type FfmpegPackaging = "ts" | "fmp4-byterange"

export interface FfmpegUpstream {
  /** the media playlist */
  readonly url: string
  /** requests by path, with the byte range when one was asked for (`/x.mp4 bytes=0-99`) */
  readonly counts: Map<string, number>
  stop(): Promise<void>
}

const TYPES: Readonly<Record<string, string>> = {
  m3u8: "application/vnd.apple.mpegurl",
  ts: "video/mp2t",
  mp4: "video/mp4",
  m4s: "video/iso.segment"
}

/**
 * A live classic HLS channel as a provider's packager makes one: Debian's ffmpeg encoding its
 * test pattern in real time (one-second segments, program date times), the files served by a
 * small HTTP server that honours byte ranges and counts every request.
 */
export async function startFfmpegUpstream(packaging: FfmpegPackaging): Promise<FfmpegUpstream> {
  const dir = await mkdtemp(join(tmpdir(), "streamhub-ffmpeg-"))
  const counts = new Map<string, number>()
  const server: Server = createServer(async (request, response) => {
    const path = normalize(decodeURIComponent((request.url ?? "/").split("?", 1)[0] ?? "/"))
    const range = /^bytes=(\d+)-(\d+)?$/.exec(request.headers.range ?? "")
    const key = range === null ? path : `${path} ${request.headers.range}`
    counts.set(key, (counts.get(key) ?? 0) + 1)
    let body: Buffer
    try {
      body = await readFile(join(dir, path))
    } catch {
      response.writeHead(404).end()
      return
    }
    const type = TYPES[path.split(".").at(-1) ?? ""] ?? "application/octet-stream"
    if (range === null) {
      response.writeHead(200, { "content-type": type, "content-length": body.length }).end(body)
      return
    }
    const start = Number(range[1])
    const end = range[2] === undefined ? body.length - 1 : Math.min(Number(range[2]), body.length - 1)
    if (start > end) {
      response.writeHead(416, { "content-range": `bytes */${body.length}` }).end()
      return
    }
    response
      .writeHead(206, { "content-type": type, "content-range": `bytes ${start}-${end}/${body.length}`, "content-length": end - start + 1 })
      .end(body.subarray(start, end + 1))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port

  const fmp4 = packaging === "fmp4-byterange"
  const child: ChildProcess = spawn(
    "ffmpeg",
    [
      ...["-hide_banner", "-loglevel", "error", "-nostdin"],
      ...["-re", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25"],
      ...["-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0"],
      ...["-c:a", "aac", "-b:a", "64k"],
      ...["-f", "hls", "-hls_time", "1", "-hls_list_size", "6"],
      ...(fmp4
        ? [
            "-hls_segment_type",
            "fmp4",
            "-hls_flags",
            "single_file+program_date_time+independent_segments",
            "-hls_fmp4_init_filename",
            "init.mp4"
          ]
        : ["-hls_flags", "delete_segments+program_date_time+independent_segments+temp_file"]),
      join(dir, "index.m3u8")
    ],
    { stdio: ["ignore", "ignore", "pipe"] }
  )
  let errors = ""
  child.stderr?.on("data", (chunk: Buffer) => (errors += chunk.toString()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      await exited
    }
    await new Promise((resolve) => server.close(resolve))
    await rm(dir, { recursive: true, force: true })
  }
  // live once the playlist lists a few segments
  const deadline = Date.now() + WAIT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`ffmpeg exited ${child.exitCode}: ${errors}`)
    }
    const playlist = await readFile(join(dir, "index.m3u8"), "utf8").catch(() => "")
    if ((playlist.match(/#EXTINF/g) ?? []).length >= 3) {
      counts.clear()
      return { url: `http://127.0.0.1:${port}/index.m3u8`, counts, stop }
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  await stop()
  throw new Error(`ffmpeg made no playlist within ${WAIT_MS / 1000} s: ${errors}`)
}

export interface TsBroadcast {
  /** MPEG-TS over HTTP: every client gets the live stream from the moment it connects */
  readonly url: string
  /** clients that connected so far */
  connections(): number
  stop(): Promise<void>
}

/** A live MPEG-TS channel over HTTP, as an IPTV box or a camera serves one: ffmpeg encoding its test pattern, sent to every client. */
export async function startTsBroadcast(): Promise<TsBroadcast> {
  const clients = new Set<ServerResponse>()
  let connections = 0
  const server: Server = createServer((request, response) => {
    if (request.url !== "/live.ts") {
      response.writeHead(404).end()
      return
    }
    connections += 1
    response.writeHead(200, { "content-type": "video/mp2t" })
    clients.add(response)
    request.once("close", () => clients.delete(response))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as { port: number }).port
  const child = spawn(
    "ffmpeg",
    [
      ...["-hide_banner", "-loglevel", "error", "-nostdin"],
      ...["-re", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25"],
      ...["-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"],
      ...["-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-keyint_min", "25", "-sc_threshold", "0"],
      ...["-c:a", "aac", "-b:a", "64k", "-f", "mpegts", "pipe:1"]
    ],
    { stdio: ["ignore", "pipe", "ignore"] }
  )
  child.stdout?.on("data", (chunk: Buffer) => {
    for (const client of clients) client.write(chunk)
  })
  return {
    url: `http://127.0.0.1:${port}/live.ts`,
    connections: () => connections,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once("exit", resolve))
        child.kill("SIGTERM")
        await exited
      }
      for (const client of clients) client.destroy()
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}
