import { END_OF_VIDEO_TOLERANCE_S, VOD_PROGRESS_SEGMENTS } from "../../domain/TelemetryLimits.ts"

const LAST_SLICE = VOD_PROGRESS_SEGMENTS - 1
// Time updates arrive every ~250 ms while playing; a larger jump forward is a seek, and the
// slices it jumps over were not watched.
const MAX_PLAYED_STEP_S = 1.5

/** The slice of a VOD a position falls in: 100 equal slices, 0 to 99. */
export const sliceOf = (position: number, duration: number): number =>
  Math.min(LAST_SLICE, Math.max(0, Math.floor((position / duration) * VOD_PROGRESS_SEGMENTS)))

/** Within 0.25 s of the duration counts as the end: players often stop just short of it. */
export const isAtEnd = (position: number, duration: number): boolean => duration - position <= END_OF_VIDEO_TOLERANCE_S

/**
 * Which of a VOD's 100 slices have been watched, and which of those are news since they were
 * last taken (a ping sends exactly those).
 */
export class VodProgress {
  readonly #reached = new Set<number>()
  #fresh: Array<number> = []
  #previous: number | undefined

  get reached(): ReadonlySet<number> {
    return this.#reached
  }

  observe(position: number, duration: number): void {
    if (!(Number.isFinite(duration) && duration > 0 && Number.isFinite(position) && position >= 0)) return
    const current = isAtEnd(position, duration) ? LAST_SLICE : sliceOf(position, duration)
    const previous = this.#previous
    const played = previous !== undefined && position >= previous && position - previous <= MAX_PLAYED_STEP_S
    const from = played ? sliceOf(previous, duration) : current
    for (let slice = from; slice <= current; slice++) this.#mark(slice)
    this.#previous = position
  }

  /** Slices reached since the last call, in ascending order. */
  takeFresh(): Array<number> {
    const fresh = this.#fresh.sort((a, b) => a - b)
    this.#fresh = []
    return fresh
  }

  get hasFresh(): boolean {
    return this.#fresh.length > 0
  }

  #mark(slice: number): void {
    if (this.#reached.has(slice)) return
    this.#reached.add(slice)
    this.#fresh.push(slice)
  }
}
