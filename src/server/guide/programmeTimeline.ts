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

export type SkipReason = "no channel" | "no title" | "unreadable time" | "no stop time" | "ends before it starts" | "longer than a day"

type Open = Omit<GuideProgramme, "stop">

/**
 * Turns XMLTV programmes into stored ones. A programme without `stop` ends where the next one on
 * its channel starts, so it waits for that one; the last of a channel has no end and is dropped.
 */
export class ProgrammeTimeline {
  readonly skipped = new Map<SkipReason, number>()
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
    const stop = item.stop === undefined ? undefined : this.#time(item.stop)
    if (start === undefined || (item.stop !== undefined && stop === undefined)) {
      this.#skip("unreadable time")
      return
    }
    const waiting = this.#waiting.get(item.channel)
    if (waiting !== undefined) {
      this.#waiting.delete(item.channel)
      this.#finish(waiting, start, emit)
    }
    if (item.title === undefined || item.title === "") {
      this.#skip("no title")
      return
    }
    const open: Open = { channel: item.channel, start, title: item.title, subtitle: item.subtitle ?? "" }
    if (stop === undefined) this.#waiting.set(item.channel, open)
    else this.#finish(open, stop, emit)
  }

  /** The end of the file: programmes still waiting for a successor never get an end. */
  end(): void {
    for (const _ of this.#waiting.values()) this.#skip("no stop time")
    this.#waiting.clear()
  }

  get skippedTotal(): number {
    let total = 0
    for (const count of this.skipped.values()) total += count
    return total
  }

  #finish(open: Open, stop: number, emit: (programme: GuideProgramme) => void): void {
    if (stop <= open.start) {
      this.#skip("ends before it starts")
      return
    }
    if (stop - open.start > MAX_PROGRAMME_MS) {
      this.#skip("longer than a day")
      return
    }
    emit({ ...open, stop })
  }

  #skip(reason: SkipReason): void {
    this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + 1)
  }
}
