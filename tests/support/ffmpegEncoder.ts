import { type ChildProcess, spawn } from "node:child_process"
import dgram from "node:dgram"
import net from "node:net"

/** What the test encoder sends: audio and video, or one of them. */
export type EncoderTracks = "both" | "video" | "audio"

export interface Encoder {
  readonly child: ChildProcess
  /** what ffmpeg said on its standard error */
  stderr(): string
  /** resolves with ffmpeg's exit code when it ends by itself */
  readonly exited: Promise<number | null>
  stop(): Promise<void>
}

/**
 * An encoder publishing to `url` in real time, as OBS or a hardware box would: Debian's ffmpeg
 * encoding its test pattern (H.264, a keyframe a second, no B-frames) and a tone (AAC), over RTMP
 * (FLV) or SRT (MPEG-TS). `video` adds output options before the video codec (the ingest bench burns
 * the wall clock into the picture with a `-vf` chain); `source` replaces the lavfi video source
 * (testsrc2 at 320x180, 25 fps, by default).
 */
export function startEncoder(
  url: string,
  options: { readonly tracks?: EncoderTracks; readonly video?: ReadonlyArray<string>; readonly source?: string } = {}
): Encoder {
  const tracks = options.tracks ?? "both"
  const video = tracks !== "audio"
  const audio = tracks !== "video"
  const args = [
    ...["-hide_banner", "-nostdin", "-loglevel", "error", "-re"],
    ...(video ? ["-f", "lavfi", "-i", options.source ?? "testsrc2=size=320x180:rate=25"] : []),
    ...(audio ? ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000"] : []),
    ...(video
      ? [...(options.video ?? []), "-c:v", "libx264", "-preset", "ultrafast", "-tune", "zerolatency", "-g", "25", "-pix_fmt", "yuv420p"]
      : []),
    ...(audio ? ["-c:a", "aac", "-b:a", "64k"] : []),
    ...(url.startsWith("rtmp:") ? ["-f", "flv"] : ["-f", "mpegts"]),
    url
  ]
  const child = spawn("ffmpeg", args, { stdio: ["ignore", "ignore", "pipe"] })
  let said = ""
  child.stderr?.on("data", (chunk: Buffer) => (said = `${said}${chunk.toString()}`.slice(-4000)))
  const exited = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)))
  return {
    child,
    stderr: () => said,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000)
      await exited
      clearTimeout(timer)
    }
  }
}

/** A TCP port and a UDP port nobody listens on now. */
export async function freePorts(): Promise<{ readonly tcp: number; readonly udp: number }> {
  const tcp = await new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0))
    })
  })
  const udp = await new Promise<number>((resolve, reject) => {
    const socket = dgram.createSocket("udp4")
    socket.once("error", reject)
    socket.bind(0, "127.0.0.1", () => {
      const { port } = socket.address()
      socket.close(() => resolve(port))
    })
  })
  return { tcp, udp }
}

/** Whether something accepts TCP connections at the port. */
export const listens = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.destroy()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })
