/**
 * One media playlist's time-shift window on disk: a file per segment and init section under the
 * track's directory, and `index.jsonl`, one line per segment (or init section) once its bytes are
 * written, which rebuilds the in-memory index when the server starts again. Writes and removals
 * run one after another, in order; nothing else waits for them.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from "node:fs"
import { appendFile, mkdir, readFile, rename, rm, unlink, writeFile } from "node:fs/promises"
import path from "node:path"
import { type NewSegment, WindowIndex, type WindowSegment } from "./timeshiftIndex.ts"

const INDEX_FILE = "index.jsonl"

/** One line of `index.jsonl`: a segment, or an init section (`i`). */
interface Line {
  readonly s?: number
  readonly d?: number
  readonly t?: number
  readonly c?: 1
  readonly g?: 1
  readonly n?: string
  readonly m?: string
  readonly b?: number
  readonly i?: string
}

const lineOf = (segment: WindowSegment): string =>
  `${JSON.stringify({
    s: segment.sequence,
    d: segment.duration,
    t: segment.programDateTime,
    ...(segment.discontinuity ? { c: 1 } : {}),
    ...(segment.gap ? { g: 1 } : {}),
    n: segment.name,
    ...(segment.map === undefined ? {} : { m: segment.map }),
    b: segment.size
  })}\n`

// names come from our own playlists; anything else never becomes a path
const SAFE_NAME = /^[A-Za-z0-9_-][A-Za-z0-9_.-]{0,127}$/

interface Init {
  refs: number
  stored: boolean
  size: number
}

export class TimeshiftTrack {
  readonly index = new WindowIndex()
  /** the next segment added comes after a gap in the feed (it started again): a discontinuity */
  junction = false
  readonly channel: string
  readonly name: string
  readonly dir: string
  private readonly pending = new Map<string, Buffer>()
  private readonly inits = new Map<string, Init>()
  private chain: Promise<void> = Promise.resolve()
  private lines = 0
  private made = false
  private readonly onError: (error: unknown) => void

  constructor(root: string, channel: string, name: string, onError: (error: unknown) => void) {
    this.channel = channel
    this.name = name
    this.dir = path.join(root, channel, name)
    this.onError = onError
  }

  /** bytes held: segments and init sections */
  get bytes(): number {
    let bytes = this.index.bytes
    for (const init of this.inits.values()) bytes += init.size
    return bytes
  }

  /** Adds the next segment (after a gap when the feed started again), with its bytes when they are at hand. */
  add(segment: NewSegment, bytes?: Buffer): WindowSegment | undefined {
    if (!SAFE_NAME.test(segment.name) || (segment.map !== undefined && !SAFE_NAME.test(segment.map))) return undefined
    const added = this.index.append({ ...segment, discontinuity: segment.discontinuity || this.junction })
    if (added === undefined) return undefined
    this.junction = false
    if (added.map !== undefined) {
      const init = this.inits.get(added.map) ?? { refs: 0, stored: false, size: 0 }
      init.refs += 1
      this.inits.set(added.map, init)
    }
    if (bytes !== undefined) this.keep(added, bytes)
    return added
  }

  /** The media of a segment added without them: written, then listed in the index file. */
  keep(segment: WindowSegment, bytes: Buffer): void {
    if (this.index.byName(segment.name) !== segment || this.pending.has(segment.name)) return
    this.pending.set(segment.name, bytes)
    this.index.held(segment, bytes.length)
    this.queue(async () => {
      if (this.index.byName(segment.name) === segment) {
        await this.ensureDir()
        await writeFile(path.join(this.dir, segment.name), bytes)
      }
      this.pending.delete(segment.name)
      // dropped while it was written: nothing may stay behind
      if (this.index.byName(segment.name) !== segment) return unlink(path.join(this.dir, segment.name)).catch(() => undefined)
      await this.appendLine(lineOf(segment))
    })
  }

  /** A segment whose media could not be had: a gap from now on. */
  lost(segment: WindowSegment): void {
    if (this.index.byName(segment.name) !== segment || segment.gap) return
    this.index.markGap(segment)
    this.queue(() => this.appendLine(lineOf(segment)))
  }

  hasInit(name: string): boolean {
    return this.inits.get(name)?.stored === true
  }

  /** An init section the track's segments name: kept once. */
  keepInit(name: string, bytes: Buffer): void {
    const init = this.inits.get(name)
    if (init === undefined || init.stored || this.pending.has(name)) return
    init.stored = true
    init.size = bytes.length
    this.pending.set(name, bytes)
    this.queue(async () => {
      await this.ensureDir()
      await writeFile(path.join(this.dir, name), bytes)
      this.pending.delete(name)
      if (this.inits.get(name) !== init) return unlink(path.join(this.dir, name)).catch(() => undefined)
      await this.appendLine(`${JSON.stringify({ i: name, b: bytes.length })}\n`)
    })
  }

  /** A segment's or init section's bytes, when the window holds them. */
  async read(name: string): Promise<Buffer | undefined> {
    const segment = this.index.byName(name)
    const init = this.inits.get(name)
    if ((segment === undefined || segment.gap) && init?.stored !== true) return undefined
    const pending = this.pending.get(name)
    if (pending !== undefined) return pending
    if (segment !== undefined && segment.size === 0) return undefined
    // dropped between the look-up and the read
    return readFile(path.join(this.dir, name)).catch(() => undefined)
  }

  /** Drops the oldest segment, and its init section when no other segment needs it. */
  dropOldest(): WindowSegment | undefined {
    const dropped = this.index.shift()
    if (dropped !== undefined) this.forget([dropped])
    return dropped
  }

  /** Forgets every segment and removes the track's files. */
  clear(): void {
    this.index.clear()
    this.inits.clear()
    this.pending.clear()
    this.lines = 0
    this.made = false
    this.queue(() => rm(this.dir, { recursive: true, force: true }))
  }

  /** Resolves once every write and removal asked for so far is done. */
  settled(): Promise<void> {
    return this.chain
  }

  private forget(dropped: ReadonlyArray<WindowSegment>): void {
    const files: Array<string> = []
    for (const segment of dropped) {
      if (segment.size > 0 && !this.pending.has(segment.name)) files.push(segment.name)
      if (segment.map === undefined) continue
      const init = this.inits.get(segment.map)
      if (init === undefined) continue
      init.refs -= 1
      if (init.refs > 0) continue
      this.inits.delete(segment.map)
      if (init.stored && !this.pending.has(segment.map)) files.push(segment.map)
    }
    if (files.length === 0) return
    this.queue(async () => {
      for (const file of files) await unlink(path.join(this.dir, file)).catch(() => undefined)
    })
  }

  private queue(work: () => Promise<unknown>): void {
    this.chain = this.chain.then(work).then(
      () => undefined,
      (error: unknown) => this.onError(error)
    )
  }

  private async ensureDir(): Promise<void> {
    if (this.made) return
    await mkdir(this.dir, { recursive: true })
    this.made = true
  }

  private async appendLine(line: string): Promise<void> {
    await this.ensureDir()
    // the index file is written again without what left the window once it is mostly that
    if (this.lines > 2 * this.index.size + 256) await this.rewrite()
    await appendFile(path.join(this.dir, INDEX_FILE), line)
    this.lines += 1
  }

  private async rewrite(): Promise<void> {
    const lines = this.linesOnDisk()
    const file = path.join(this.dir, INDEX_FILE)
    await writeFile(`${file}.tmp`, lines.join(""))
    await rename(`${file}.tmp`, file)
    this.lines = lines.length
  }

  /** What the index file says once rewritten: every init section and segment whose bytes are written. */
  private linesOnDisk(): Array<string> {
    const lines: Array<string> = []
    for (const [name, init] of this.inits) {
      if (init.stored && !this.pending.has(name)) lines.push(`${JSON.stringify({ i: name, b: init.size })}\n`)
    }
    for (const segment of this.index.range(this.index.first ?? 0, this.index.next ?? 0)) {
      if (segment.gap || (segment.size > 0 && !this.pending.has(segment.name))) lines.push(lineOf(segment))
    }
    return lines
  }

  /**
   * The window as the server left it: its index file read again, segments whose file is missing
   * listed as gaps, files it does not name removed, and the file written again without what left.
   * Whatever the feed adds next comes after a gap.
   */
  load(): void {
    let text: string
    let files: Set<string>
    try {
      text = readFileSync(path.join(this.dir, INDEX_FILE), "utf8")
      files = new Set(readdirSync(this.dir))
    } catch {
      rmSync(this.dir, { recursive: true, force: true })
      return
    }
    const read: Array<Line> = []
    for (const raw of text.split("\n")) {
      try {
        read.push(JSON.parse(raw) as Line)
      } catch {
        // a line cut short by a crash
      }
    }
    // init sections first: a segment's line may come before its init section's (both are written as they arrive)
    const initSizes = new Map<string, number>()
    for (const line of read)
      if (typeof line.i === "string" && SAFE_NAME.test(line.i) && files.has(line.i)) initSizes.set(line.i, line.b ?? 0)
    for (const line of read) {
      if (typeof line.s !== "number" || typeof line.d !== "number" || typeof line.t !== "number" || typeof line.n !== "string") continue
      const map = typeof line.m === "string" && initSizes.has(line.m) ? line.m : undefined
      const gap = line.g === 1 || !files.has(line.n) || (line.m !== undefined && map === undefined)
      const existing = this.index.byName(line.n)
      if (existing !== undefined) {
        existing.gap ||= gap
        continue
      }
      this.add(
        { sequence: line.s, duration: line.d, programDateTime: line.t, discontinuity: line.c === 1, name: line.n, map, gap },
        undefined
      )
      const added = this.index.byName(line.n)
      if (added !== undefined && !gap) this.index.held(added, line.b ?? 0)
    }
    for (const [name, init] of this.inits) {
      init.stored = initSizes.has(name)
      init.size = initSizes.get(name) ?? 0
    }
    const kept = new Set([INDEX_FILE, ...this.inits.keys()])
    for (const segment of this.index.range(this.index.first ?? 0, this.index.next ?? 0)) if (!segment.gap) kept.add(segment.name)
    for (const file of files) if (!kept.has(file)) unlinkSync(path.join(this.dir, file))
    const lines = this.linesOnDisk()
    mkdirSync(this.dir, { recursive: true })
    writeFileSync(path.join(this.dir, INDEX_FILE), lines.join(""))
    this.lines = lines.length
    this.made = true
    this.junction = this.index.size > 0
  }
}
