import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"

const TS_PACKET = 188
/** An MPEG-TS null packet (PID 0x1FFF): players skip it, so the picture is the demo's own. */
const NULL_PACKET = Buffer.concat([Buffer.from([0x47, 0x1f, 0xff, 0x10]), Buffer.alloc(TS_PACKET - 4, 0xff)])

interface Manifest {
  readonly label: string
  readonly segments: ReadonlyArray<{
    readonly file: string
    readonly duration: number
    readonly parts: ReadonlyArray<{ readonly offset: number; readonly size: number; readonly duration: number }>
  }>
}

/**
 * The demo channel's loop at `mbps`: each part followed by null packets up to the bitrate, so a
 * relay serves as many bytes as a real channel of that rate while the picture stays playable.
 */
export async function paddedMedia(sourceDir: string, channel: string, mbps: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "streamhub-bench-media-"))
  await mkdir(join(dir, channel))
  const manifest = JSON.parse(await readFile(join(sourceDir, channel, "segments.json"), "utf8")) as Manifest
  const segments = []
  for (const segment of manifest.segments) {
    const bytes = await readFile(join(sourceDir, channel, segment.file))
    const pieces: Array<Buffer> = []
    const parts = []
    let offset = 0
    for (const part of segment.parts) {
      const own = bytes.subarray(part.offset, part.offset + part.size)
      const wanted = Math.ceil((mbps * 1e6 * part.duration) / 8 / TS_PACKET) * TS_PACKET
      const padding = Math.max(0, Math.ceil((wanted - own.length) / TS_PACKET))
      pieces.push(own, ...Array.from({ length: padding }, () => NULL_PACKET))
      const size = own.length + padding * TS_PACKET
      parts.push({ offset, size, duration: part.duration })
      offset += size
    }
    await writeFile(join(dir, channel, segment.file), Buffer.concat(pieces))
    segments.push({ file: segment.file, duration: segment.duration, parts })
  }
  await writeFile(join(dir, channel, "segments.json"), JSON.stringify({ label: manifest.label, segments }))
  return dir
}
