/**
 * Fragmented MP4 as ffmpeg writes it to a pipe (`-movflags empty_moov+default_base_moof`): an
 * init section (ftyp + moov), then fragments (moof + mdat). Read as it arrives, for what the
 * packager needs to know of each fragment: how long it lasts and whether it starts on a keyframe.
 */

/** One fragment: its bytes, its duration, and whether a player may start decoding at it. */
export interface Fragment {
  readonly bytes: Buffer
  /** seconds */
  readonly duration: number
  readonly independent: boolean
}

interface Track {
  readonly id: number
  readonly timescale: number
  readonly video: boolean
  readonly defaultDuration: number
  readonly defaultFlags: number
}

export class Fmp4Error extends Error {
  override readonly name = "Fmp4Error"
}

interface Box {
  readonly type: string
  /** the box's payload, header excluded */
  readonly body: Buffer
}

/** The boxes inside `data`, in order; a box running past the end is an error. */
function boxes(data: Buffer): Array<Box> {
  const found: Array<Box> = []
  let at = 0
  while (at + 8 <= data.length) {
    let size = data.readUInt32BE(at)
    const type = data.toString("latin1", at + 4, at + 8)
    let header = 8
    if (size === 1) {
      size = Number(data.readBigUInt64BE(at + 8))
      header = 16
    } else if (size === 0) size = data.length - at
    if (size < header || at + size > data.length) throw new Fmp4Error(`a ${type} box runs past its parent`)
    found.push({ type, body: data.subarray(at + header, at + size) })
    at += size
  }
  return found
}

const child = (box: Box | undefined, type: string): Box | undefined =>
  box === undefined ? undefined : boxes(box.body).find((b) => b.type === type)
const children = (box: Box | undefined, type: string): Array<Box> =>
  box === undefined ? [] : boxes(box.body).filter((b) => b.type === type)

/** The tracks an init section describes. */
export function tracksOf(init: Buffer): Array<Track> {
  const moov = boxes(init).find((box) => box.type === "moov")
  if (moov === undefined) throw new Fmp4Error("the init section has no moov")
  const trex = new Map<number, { duration: number; flags: number }>()
  for (const box of children(child(moov, "mvex"), "trex")) {
    trex.set(box.body.readUInt32BE(4), { duration: box.body.readUInt32BE(12), flags: box.body.readUInt32BE(20) })
  }
  return children(moov, "trak").map((trak) => {
    const tkhd = child(trak, "tkhd")
    const mdia = child(trak, "mdia")
    const mdhd = child(mdia, "mdhd")
    const hdlr = child(mdia, "hdlr")
    if (tkhd === undefined || mdhd === undefined || hdlr === undefined) throw new Fmp4Error("a track lacks tkhd, mdhd or hdlr")
    const id = tkhd.body.readUInt32BE(tkhd.body[0] === 1 ? 20 : 12)
    const timescale = mdhd.body.readUInt32BE(mdhd.body[0] === 1 ? 20 : 12)
    const defaults = trex.get(id) ?? { duration: 0, flags: 0 }
    return {
      id,
      timescale,
      video: hdlr.body.toString("latin1", 8, 12) === "vide",
      defaultDuration: defaults.duration,
      defaultFlags: defaults.flags
    }
  })
}

const NON_SYNC = 0x10000

/** A fragment's duration (by its video track, else its first) and whether its video starts on a keyframe. */
export function readFragment(moof: Buffer, tracks: ReadonlyArray<Track>): { duration: number; independent: boolean } {
  const [box] = boxes(moof)
  if (box?.type !== "moof") throw new Fmp4Error("a fragment does not start with moof")
  const read = children(box, "traf").map((traf) => {
    const tfhd = child(traf, "tfhd")
    if (tfhd === undefined) throw new Fmp4Error("a traf lacks tfhd")
    const tfhdFlags = tfhd.body.readUInt32BE(0) & 0xffffff
    const track = tracks.find((candidate) => candidate.id === tfhd.body.readUInt32BE(4))
    let at = 8
    if (tfhdFlags & 0x1) at += 8
    if (tfhdFlags & 0x2) at += 4
    let defaultDuration = track?.defaultDuration ?? 0
    if (tfhdFlags & 0x8) {
      defaultDuration = tfhd.body.readUInt32BE(at)
      at += 4
    }
    if (tfhdFlags & 0x10) at += 4
    const defaultFlags = tfhdFlags & 0x20 ? tfhd.body.readUInt32BE(at) : (track?.defaultFlags ?? 0)
    let ticks = 0
    let firstFlags: number | undefined
    for (const trun of children(traf, "trun")) {
      const flags = trun.body.readUInt32BE(0) & 0xffffff
      const count = trun.body.readUInt32BE(4)
      let offset = 8
      if (flags & 0x1) offset += 4
      if (flags & 0x4) {
        firstFlags ??= trun.body.readUInt32BE(offset)
        offset += 4
      }
      for (let sample = 0; sample < count; sample += 1) {
        if (flags & 0x100) {
          ticks += trun.body.readUInt32BE(offset)
          offset += 4
        } else ticks += defaultDuration
        if (flags & 0x200) offset += 4
        if (flags & 0x400) {
          if (sample === 0) firstFlags ??= trun.body.readUInt32BE(offset)
          offset += 4
        }
        if (flags & 0x800) offset += 4
      }
    }
    return {
      track,
      seconds: track === undefined || track.timescale === 0 ? 0 : ticks / track.timescale,
      firstFlags: firstFlags ?? defaultFlags
    }
  })
  const video = read.find((traf) => traf.track?.video === true)
  const main = video ?? read[0]
  return {
    duration: main?.seconds ?? 0,
    // audio alone starts anywhere
    independent: video === undefined || (video.firstFlags & NON_SYNC) === 0
  }
}

/**
 * Reads a stream of fragmented MP4 as it arrives: `init` once the init section is whole (again
 * if the stream starts over), `fragment` for each moof + mdat. Bytes are kept only until the box
 * they belong to is whole; a box larger than `maxBox` is an error, not a growing buffer.
 */
export class Fmp4Reader {
  private pending: Array<Buffer> = []
  private pendingBytes = 0
  private initParts: Array<Buffer> = []
  private moof: Buffer | undefined
  private tracks: Array<Track> = []
  private readonly maxBox: number
  private readonly onInit: (init: Buffer) => void
  private readonly onFragment: (fragment: Fragment) => void

  constructor(handlers: {
    readonly init: (init: Buffer) => void
    readonly fragment: (fragment: Fragment) => void
    readonly maxBox?: number
  }) {
    this.onInit = handlers.init
    this.onFragment = handlers.fragment
    this.maxBox = handlers.maxBox ?? 32 * 1024 * 1024
  }

  push(chunk: Buffer): void {
    this.pending.push(chunk)
    this.pendingBytes += chunk.length
    for (;;) {
      if (this.pendingBytes < 8) return
      const head = this.peek(16)
      let size = head.readUInt32BE(0)
      if (size === 1) {
        if (head.length < 16) return
        size = Number(head.readBigUInt64BE(8))
      }
      if (size < 8 || size > this.maxBox) throw new Fmp4Error(`a box of ${size} bytes`)
      if (this.pendingBytes < size) return
      const box = this.take(size)
      this.box(box.toString("latin1", 4, 8), box)
    }
  }

  private box(type: string, box: Buffer): void {
    switch (type) {
      case "ftyp":
        this.initParts = [box]
        return
      case "moov": {
        const init = Buffer.concat([...this.initParts, box])
        this.initParts = []
        this.tracks = tracksOf(init)
        this.onInit(init)
        return
      }
      case "moof":
        this.moof = box
        return
      case "mdat": {
        const moof = this.moof
        this.moof = undefined
        if (moof === undefined) return
        const { duration, independent } = readFragment(moof, this.tracks)
        this.onFragment({ bytes: Buffer.concat([moof, box]), duration, independent })
        return
      }
      default:
      // styp, sidx, prft, mfra and the like: nothing a player of our playlists needs
    }
  }

  private peek(bytes: number): Buffer {
    const first = this.pending[0]
    if (first !== undefined && first.length >= bytes) return first
    return Buffer.concat(this.pending).subarray(0, bytes)
  }

  private take(bytes: number): Buffer {
    const all = this.pending.length === 1 ? (this.pending[0] as Buffer) : Buffer.concat(this.pending)
    const box = Buffer.from(all.subarray(0, bytes))
    const rest = all.subarray(bytes)
    this.pending = rest.length > 0 ? [rest] : []
    this.pendingBytes = rest.length
    return box
  }
}
