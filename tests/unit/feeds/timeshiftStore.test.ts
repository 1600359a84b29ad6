import { existsSync, readdirSync, readFileSync } from "node:fs"
import { mkdtemp, rm, writeFile } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { MAX_FILLED_GAP, WindowIndex } from "../../../src/server/feeds/timeshiftIndex.ts"
import { TimeshiftStore } from "../../../src/server/feeds/timeshiftStore.ts"

const HOUR = 3_600_000
const T0 = Date.UTC(2026, 5, 1, 18, 0, 0)

/** The i-th two-second segment of a run named `run`. */
const segment = (sequence: number, run = "r1", at = T0 + (sequence - 100) * 2000) => ({
  sequence,
  duration: 2,
  programDateTime: at,
  discontinuity: false,
  name: `${run}-${sequence}.m4s`,
  map: `${run}-init1.mp4`
})

describe("the time-shift index", () => {
  it("lists segments in order without holes, fills a short jump with gaps and starts again after a long one", () => {
    const index = new WindowIndex()
    expect(index.append(segment(100))?.start).toBe(0)
    expect(index.append(segment(101))?.start).toBe(2)
    // a segment before the next is refused: the index never goes back
    expect(index.append(segment(101))).toBeUndefined()
    index.append(segment(104))
    expect([...index.range(100, 105)].map((entry) => [entry.sequence, entry.gap])).toEqual([
      [100, false],
      [101, false],
      [102, true],
      [103, true],
      [104, false]
    ])
    expect(index.byName("r1-104.m4s")?.sequence).toBe(104)
    const epoch = index.epoch
    index.append(segment(105 + MAX_FILLED_GAP + 1))
    expect(index.size).toBe(1)
    expect(index.first).toBe(105 + MAX_FILLED_GAP + 1)
    expect(index.epoch).not.toBe(epoch)
  })

  it("counts a discontinuity that leaves the front in the discontinuity sequence", () => {
    const index = new WindowIndex()
    index.append({ ...segment(1), discontinuity: true })
    index.append(segment(2))
    index.append({ ...segment(3), discontinuity: true })
    expect(index.discontinuitySequence).toBe(0)
    index.shift()
    expect(index.discontinuitySequence).toBe(1)
    index.shift()
    expect(index.discontinuitySequence).toBe(1)
    expect(index.first).toBe(3)
  })

  it("finds where a delta update starts by the segments' start times", () => {
    const index = new WindowIndex()
    for (let sequence = 10; sequence < 20; sequence += 1) index.append(segment(sequence))
    expect(index.firstStartingAt(7, 10, 20)).toBe(14)
    expect(index.firstStartingAt(0, 10, 20)).toBe(10)
    expect(index.firstStartingAt(99, 10, 18)).toBe(18)
    expect(index.longestRounded()).toBe(2)
  })
})

describe("the time-shift store", () => {
  let dir = ""
  let clock = T0
  const errors: Array<unknown> = []
  const open = (perChannel = 1_000_000, total = 10_000_000) => {
    const store = new TimeshiftStore({ dir, perChannel, total }, { onError: (error) => errors.push(error), wallClock: () => clock })
    store.load()
    return store
  }
  const bytes = (size: number, fill: number) => Buffer.alloc(size, fill)

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "streamhub-timeshift-"))
    clock = T0
    errors.length = 0
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
    expect(errors).toEqual([])
  })

  it("writes each segment and its init section once, and reads them back by name", async () => {
    const store = open()
    const track = store.track("pull1")
    track.add(segment(100), bytes(1000, 1))
    track.keepInit("r1-init1.mp4", bytes(50, 9))
    track.add(segment(101), bytes(1000, 2))
    // pending bytes are served before they reach the disk
    expect((await track.read("r1-101.m4s"))?.[0]).toBe(2)
    await store.settled()
    expect(readdirSync(path.join(dir, "pull1", "index")).sort()).toEqual(["index.jsonl", "r1-100.m4s", "r1-101.m4s", "r1-init1.mp4"])
    expect((await store.holding("pull1", "r1-100.m4s")?.read("r1-100.m4s"))?.equals(bytes(1000, 1))).toBe(true)
    expect((await store.holding("pull1", "r1-init1.mp4")?.read("r1-init1.mp4"))?.length).toBe(50)
    expect(store.holding("pull1", "r1-99.m4s")).toBeUndefined()
    expect(store.bytes("pull1")).toBe(2050)
  })

  it("drops segments older than the window, and all of them when time-shift is turned off", async () => {
    const store = open()
    const track = store.track("pull1")
    for (let sequence = 100; sequence < 110; sequence += 1) track.add(segment(sequence), bytes(100, sequence))
    clock = T0 + 4 * HOUR + 10_000
    store.prune()
    // ended more than four hours ago: 100 to 103 (each ends two seconds after it starts)
    expect(track.index.first).toBe(104)
    await store.settled()
    expect(existsSync(path.join(dir, "pull1", "index", "r1-103.m4s"))).toBe(false)
    expect(existsSync(path.join(dir, "pull1", "index", "r1-104.m4s"))).toBe(true)
    store.hours = 0
    store.prune()
    expect(track.index.size).toBe(0)
    await store.settled()
    expect(existsSync(path.join(dir, "pull1", "index"))).toBe(false)
  })

  it("holds each channel to its cap and all together to theirs, the oldest dropped first", async () => {
    const store = open(1000, 1500)
    const a = store.track("pull1")
    const b = store.track("pull2")
    for (let sequence = 100; sequence < 106; sequence += 1) {
      a.add({ ...segment(sequence), map: undefined }, bytes(300, 1))
      store.prune()
    }
    // 1000 bytes a channel: three segments of 300
    expect([a.index.first, a.index.size]).toEqual([103, 3])
    for (let sequence = 200; sequence < 203; sequence += 1) {
      b.add({ ...segment(sequence, "r2", T0 + 60_000 + sequence * 10), map: undefined }, bytes(300, 2))
      store.prune()
    }
    // 1500 in all: pull1's older segments went first, then the oldest left
    expect(store.bytes()).toBeLessThanOrEqual(1500)
    expect([a.index.size, b.index.size]).toEqual([2, 3])
    expect(a.index.first).toBe(104)
    await store.settled()
    expect(readdirSync(path.join(dir, "pull1", "index")).filter((file) => file.endsWith(".m4s"))).toEqual(["r1-104.m4s", "r1-105.m4s"])
  })

  it("reads the window again after a restart: missing files become gaps, stray files go, the next segment follows a gap", async () => {
    const first = open()
    const track = first.track("relay3", "abc.m3u8")
    track.add({ ...segment(100), discontinuity: true }, bytes(100, 1))
    track.keepInit("r1-init1.mp4", bytes(10, 7))
    for (let sequence = 101; sequence < 105; sequence += 1) track.add(segment(sequence), bytes(100, sequence))
    // added, never written: the server stopped first
    track.add(segment(105))
    await first.settled()
    const files = path.join(dir, "relay3", "abc.m3u8")
    await rm(path.join(files, "r1-102.m4s"))
    await writeFile(path.join(files, "stray.m4s"), "x")

    const again = open()
    const loaded = again.track("relay3", "abc.m3u8")
    expect([loaded.index.first, loaded.index.next]).toEqual([100, 105])
    expect(loaded.index.at(100)?.discontinuity).toBe(true)
    // its line came before its init section's: it is still whole
    expect((await loaded.read("r1-100.m4s"))?.[0]).toBe(1)
    expect(loaded.index.at(102)?.gap).toBe(true)
    expect(await loaded.read("r1-102.m4s")).toBeUndefined()
    expect((await loaded.read("r1-103.m4s"))?.[0]).toBe(103)
    expect((await loaded.read("r1-init1.mp4"))?.length).toBe(10)
    expect(existsSync(path.join(files, "stray.m4s"))).toBe(false)
    expect(loaded.junction).toBe(true)
    expect(loaded.add(segment(105), bytes(100, 5))?.discontinuity).toBe(true)
    expect(loaded.add(segment(106), bytes(100, 6))?.discontinuity).toBe(false)
    await again.settled()
  })

  it("writes the index file again once it is mostly segments that left", async () => {
    const store = open(250_000)
    const track = store.track("pull1")
    for (let sequence = 0; sequence < 1000; sequence += 1) {
      track.add({ ...segment(sequence), map: undefined }, bytes(1000, 1))
      store.prune()
    }
    await store.settled()
    const lines = readFileSync(path.join(dir, "pull1", "index", "index.jsonl"), "utf8")
      .trim()
      .split("\n")
    expect(track.index.size).toBe(250)
    expect(lines.length).toBeLessThan(2 * 250 + 256 + 2)
    expect(readdirSync(path.join(dir, "pull1", "index"))).toHaveLength(251)
  })
})
