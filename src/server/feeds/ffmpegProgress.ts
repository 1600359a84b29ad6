/**
 * What ffmpeg says of its own work (`-progress`): a block of `key=value` lines every second,
 * ended by `progress=continue` (or `progress=end`). The feeds show its speed, frame rate and
 * output bitrate to staff.
 */

export interface FfmpegProgress {
  /** frames a second; null when ffmpeg has no video (or has not said) */
  readonly fps: number | null
  /** media time made per wall-clock time: 1 is real time */
  readonly speed: number | null
  /** bits a second of what ffmpeg wrote */
  readonly bitrate: number | null
}

const numberOf = (text: string | undefined): number | null => {
  const value = Number.parseFloat(text ?? "")
  return Number.isFinite(value) ? value : null
}

/**
 * Reads ffmpeg's progress lines as they come, calling `report` for each finished block. Frame rate
 * and speed are those since the block before (ffmpeg's own are averages since it started, which a
 * start-up burst keeps wrong for minutes).
 */
export function progressReader(
  report: (progress: FfmpegProgress) => void,
  clock: () => number = () => performance.now()
): (chunk: Buffer) => void {
  let pending = ""
  let block = new Map<string, string>()
  let last: { readonly at: number; readonly frames: number | null; readonly mediaUs: number | null } | undefined
  return (chunk) => {
    pending = `${pending}${chunk.toString("latin1")}`
    // a line longer than this is not ffmpeg's progress
    if (pending.length > 65_536) pending = ""
    let newline = pending.indexOf("\n")
    while (newline >= 0) {
      const line = pending.slice(0, newline).trim()
      pending = pending.slice(newline + 1)
      newline = pending.indexOf("\n")
      const equals = line.indexOf("=")
      if (equals <= 0) continue
      const key = line.slice(0, equals).trim()
      const value = line.slice(equals + 1).trim()
      if (key !== "progress") {
        block.set(key, value)
        continue
      }
      const kbits = /^([\d.]+)\s*kbits\/s$/.exec(block.get("bitrate") ?? "")
      const frames = numberOf(block.get("frame"))
      const mediaUs = numberOf(block.get("out_time_us"))
      const at = clock()
      const seconds = last === undefined ? 0 : (at - last.at) / 1000
      const rate = (now: number | null, before: number | null | undefined, scale: number): number | null =>
        now === null || before === null || before === undefined || seconds <= 0 ? null : Math.max(0, (now - before) / scale / seconds)
      const fps = frames === 0 ? null : rate(frames, last?.frames, 1)
      report({
        fps: fps === null ? null : Math.round(fps * 100) / 100,
        speed: ((speed) => (speed === null ? null : Math.round(speed * 100) / 100))(rate(mediaUs, last?.mediaUs, 1_000_000)),
        bitrate: kbits === null ? null : Math.round(Number(kbits[1]) * 1000)
      })
      last = { at, frames, mediaUs }
      block = new Map()
    }
  }
}
