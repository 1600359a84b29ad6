/** The `segments.json` each channel directory ships (see media/README.md). */
import { readdir, readFile } from "node:fs/promises"
import path from "node:path"
import type { LiveSegment } from "./livePlaylist.ts"

export interface ManifestPart {
  /** byte offset inside the segment file */
  readonly offset: number
  /** bytes */
  readonly size: number
  /** seconds */
  readonly duration: number
}

export interface ManifestSegment extends LiveSegment {
  /** low-latency parts in order, covering the file; absent for media made without them */
  readonly parts?: ReadonlyArray<ManifestPart>
}

export interface Manifest {
  readonly label: string
  readonly segments: ReadonlyArray<ManifestSegment>
}

const CHANNEL_NAME = /^[a-z0-9][a-z0-9_-]*$/
const SEGMENT_FILE = /^[A-Za-z0-9][A-Za-z0-9_.-]*\.ts$/

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

const isSeconds = (value: unknown): value is number => typeof value === "number" && value > 0 && Number.isFinite(value)

const isByteCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0

// A broken manifest is a packaging error: fail at startup with the file named, not per request.
export const parseManifest = (text: string, where: string): Manifest => {
  const fail = (why: string): never => {
    throw new Error(`${where}: ${why}`)
  }
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch {
    return fail("not valid JSON")
  }
  if (!isRecord(data)) return fail("expected an object")
  const { label, segments } = data
  if (typeof label !== "string" || label.trim() === "") return fail("label must be a non-empty string")
  if (!Array.isArray(segments) || segments.length === 0) return fail("segments must be a non-empty array")

  const parseParts = (value: unknown, at: string, duration: number): Array<ManifestPart> => {
    if (!Array.isArray(value) || value.length === 0) return fail(`${at} must be a non-empty array`)
    let next = 0
    let totalMs = 0
    const parts = value.map((entry: unknown, index): ManifestPart => {
      if (!isRecord(entry)) return fail(`${at}[${index}] must be an object`)
      const { offset, size, duration: seconds } = entry
      if (!isByteCount(offset) || offset !== next) return fail(`${at}[${index}].offset must be ${next}`)
      if (!isByteCount(size) || size === 0) return fail(`${at}[${index}].size must be a positive integer`)
      if (!isSeconds(seconds)) return fail(`${at}[${index}].duration must be a positive number of seconds`)
      next = offset + size
      totalMs += Math.round(seconds * 1000)
      return { offset, size, duration: seconds }
    })
    // Part timing is derived from these durations, so they must add up to the segment's.
    if (Math.abs(totalMs - Math.round(duration * 1000)) > 1) return fail(`${at} durations do not add up to the segment's`)
    return parts
  }

  const parsed = segments.map((entry: unknown, index): ManifestSegment => {
    if (!isRecord(entry)) return fail(`segments[${index}] must be an object`)
    const { file, duration, parts } = entry
    if (typeof file !== "string" || !SEGMENT_FILE.test(file)) return fail(`segments[${index}].file is not a .ts file name`)
    if (!isSeconds(duration)) return fail(`segments[${index}].duration must be a positive number of seconds`)
    if (parts === undefined) return { file, duration }
    return { file, duration, parts: parseParts(parts, `segments[${index}].parts`, duration) }
  })
  const withParts = parsed.filter((segment) => segment.parts !== undefined).length
  if (withParts !== 0 && withParts !== parsed.length) return fail("either every segment has parts or none has")
  return { label, segments: parsed }
}

export const readManifests = async (mediaDir: string): Promise<Array<[string, Manifest]>> => {
  const entries = await readdir(mediaDir, { withFileTypes: true })
  const names = entries
    .filter((entry) => entry.isDirectory() && CHANNEL_NAME.test(entry.name))
    .map((entry) => entry.name)
    .sort()
  const found: Array<[string, Manifest]> = []
  for (const name of names) {
    const where = path.join(mediaDir, name, "segments.json")
    let text: string
    try {
      text = await readFile(where, "utf8")
    } catch (error) {
      // Directories without a manifest are simply not channels.
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue
      throw error
    }
    found.push([name, parseManifest(text, where)])
  }
  return found
}
