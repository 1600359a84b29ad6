import type { XmltvProgramme } from "./xmltvReader.ts"
import { parseXmltvTime } from "./xmltvTime.ts"

/** A programme ready to store; times are epoch ms. */
export interface GuideProgramme {
  readonly channel: string
  readonly start: number
  readonly stop: number
  readonly title: string
  readonly subtitle: string
}

/**
 * Longer programmes are dropped: they are placeholders ("no information") in practice, and the
 * bound lets the guide's queries find what overlaps an interval by a range of start times.
 */
export const MAX_PROGRAMME_MS = 24 * 60 * 60 * 1000

/**
 * How long the last programme of a channel is taken to last when the file gives it no `stop`
 * (grabbers leave it out when the source's listing ends): an hour shows it as on now, and it is
 * replaced by the next import that knows more.
 */
export const DEFAULT_PROGRAMME_MS = 60 * 60 * 1000
const DAY_MS = 24 * 60 * 60 * 1000

export type SkipReason = "no channel" | "no title" | "unreadable time" | "ends before it starts" | "longer than a day"

/** Programmes kept although the file was not quite right about their times, for the import report. */
export type RepairReason =
  | "stop before start on the same date, read as the next day"
  | "no stop, ended where the next one starts"
  | "no stop and last of its channel, given 1 hour"

type Open = Omit<GuideProgramme, "stop">

/**
 * Turns XMLTV programmes into stored ones. A programme without `stop` ends where the next one on
 * its channel starts, so it waits for that one; the last of a channel gets `DEFAULT_PROGRAMME_MS`.
 * A `stop` written with its start's date but earlier in the day (23:20 to 01:00, both dated the
 * 1st: grabbers that write the listing's date on both) ends on the next day.
 */
export class ProgrammeTimeline {
  readonly skipped = new Map<SkipReason, number>()
  readonly repaired = new Map<RepairReason, number>()
  readonly #waiting = new Map<string, Open>()
  // A programme usually starts as the one before it stops: remembering the last time read halves the parsing.
  #lastText = ""
  #lastTime: number | undefined

  #time(text: string): number | undefined {
    if (text !== this.#lastText) {
      this.#lastText = text
      this.#lastTime = parseXmltvTime(text)
    }
    return this.#lastTime
  }

  /** Hands `emit` every programme this one completes: its own, a waiting one's, both or neither. */
  add(item: XmltvProgramme, emit: (programme: GuideProgramme) => void): void {
    if (item.channel === "") {
      this.#skip("no channel")
      return
    }
    const start = this.#time(item.start)
    let stop = item.stop === undefined ? undefined : this.#time(item.stop)
    if (start === undefined || (item.stop !== undefined && stop === undefined)) {
      this.#skip("unreadable time")
      return
    }
    const waiting = this.#waiting.get(item.channel)
    if (waiting !== undefined) {
      this.#waiting.delete(item.channel)
      this.#finish(waiting, start, emit, "no stop, ended where the next one starts")
    }
    if (item.title === undefined || item.title === "") {
      this.#skip("no title")
      return
    }
    const open: Open = { channel: item.channel, start, title: item.title, subtitle: item.subtitle ?? "" }
    if (stop === undefined) {
      this.#waiting.set(item.channel, open)
      return
    }
    if (stop < start && sameDate(item.start, item.stop ?? "")) {
      stop += DAY_MS
      this.#finish(open, stop, emit, "stop before start on the same date, read as the next day")
    } else this.#finish(open, stop, emit)
  }

  /** The end of the file: programmes still waiting for a successor last `DEFAULT_PROGRAMME_MS`. */
  end(emit: (programme: GuideProgramme) => void): void {
    for (const open of this.#waiting.values()) {
      this.#finish(open, open.start + DEFAULT_PROGRAMME_MS, emit, "no stop and last of its channel, given 1 hour")
    }
    this.#waiting.clear()
  }

  get skippedTotal(): number {
    let total = 0
    for (const count of this.skipped.values()) total += count
    return total
  }

  /** Emits the programme unless its times make no sense; `repair` names what its stop was made from. */
  #finish(open: Open, stop: number, emit: (programme: GuideProgramme) => void, repair?: RepairReason): void {
    if (stop <= open.start) {
      this.#skip("ends before it starts")
      return
    }
    if (stop - open.start > MAX_PROGRAMME_MS) {
      this.#skip("longer than a day")
      return
    }
    if (repair !== undefined) this.repaired.set(repair, (this.repaired.get(repair) ?? 0) + 1)
    emit({ ...open, stop })
  }

  #skip(reason: SkipReason): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1)
  }
}

/** Both XMLTV times are written with the same date (`YYYYMMDD`), whatever their times of day. */
function sameDate(start: string, stop: string): boolean {
  const a = start.trim()
  const b = stop.trim()
  return a.length >= 8 && b.length >= 8 && a.slice(0, 8) === b.slice(0, 8)
}
