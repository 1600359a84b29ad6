import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { START_OVER_AFTER_MS } from "../../../src/domain/Timeshift.ts"
import { selectSearch } from "../../../src/machines/player/playerSelectors.ts"
import { selectGuideTime, selectStartMissed, selectStartOverProgramme } from "../../../src/machines/player/playerStartOverMachine.ts"
import { liveTiming, startPlayer } from "../../support/playerHarness.ts"
import { fakeNowNext, guide, MINUTE, ok, programme, T0 } from "../streams/nowNextFixtures.ts"

/** Stream 3's "Evening News" began ten minutes before T0. */
const NEWS_START = T0 - 10 * MINUTE
/** A window of four hours whose live edge is T0: media time 0 is its start. */
const EPOCH = T0 - 4 * 60 * MINUTE
const dvrTiming = (currentTime: number) =>
  liveTiming({ currentTime, start: 0, end: 4 * 3600, latency: 4 * 3600 - currentTime, epoch: EPOCH })

describe("playerMachine: start from the beginning or watch live", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(T0)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const open = async (options: Parameters<typeof startPlayer>[0] = {}) => {
    const started = await startPlayer({ nowNext: fakeNowNext(ok(guide)).logic, timeshiftHours: 4, ...options })
    await started.attach()
    return { ...started, prompt: () => selectStartOverProgramme(started.child("startOver")) }
  }

  it(`asks once the guide says the programme began more than ${START_OVER_AFTER_MS / MINUTE} minutes ago, the live picture running meanwhile`, async () => {
    const { prompt, media, send, recalls, child } = await open()
    expect(prompt()?.Title).toBe("Evening News")
    expect(selectGuideTime(child("startOver"))).toBe(T0)
    expect(recalls).toEqual([{ streamId: 3, start: new Date(NEWS_START).toISOString() }])
    send({ type: "media.playing" })
    expect(media.sent("media.load")).toHaveLength(1)
    expect(media.sent("media.pause")).toEqual([])
  })

  it("plays the programme from its start once the viewer says so, as soon as the window's dates are known", async () => {
    const { prompt, media, send, remembered } = await open()
    send({ type: "startOver.begin" })
    expect(prompt()).toBeNull()
    expect(remembered).toEqual([{ key: { streamId: 3, start: new Date(NEWS_START).toISOString() }, choice: "beginning" }])
    expect(media.sent("media.seekTo")).toEqual([])
    // a timing without dates says nothing of where the programme is
    send(liveTiming({ start: 0, end: 4 * 3600, currentTime: 4 * 3600 - 6 }))
    expect(media.sent("media.seekTo")).toEqual([])
    send(dvrTiming(4 * 3600 - 6))
    expect(media.sent("media.seekTo")).toEqual([{ type: "media.seekTo", time: (NEWS_START - EPOCH) / 1000 }])
    expect(media.sent("media.play")).toHaveLength(1)
    // and only once
    send(dvrTiming(4 * 3600 - 6))
    expect(media.sent("media.seekTo")).toHaveLength(1)
  })

  it("plays on live when the viewer says so (or closes the question), and remembers it", async () => {
    const { prompt, media, send, remembered } = await open()
    send({ type: "startOver.watchLive" })
    expect(prompt()).toBeNull()
    expect(media.sent("media.seekTo")).toEqual([])
    expect(remembered.map((answer) => answer.choice)).toEqual(["live"])
  })

  it("does not ask about a programme answered before, one begun only just now, or one before the window", async () => {
    expect((await open({ recalled: "live" })).prompt()).toBeNull()
    const recent = fakeNowNext(ok([{ streamId: 3, now: programme(-2, 40, "Kick-off"), next: null }])).logic
    expect((await open({ nowNext: recent })).prompt()).toBeNull()
    const long = fakeNowNext(ok([{ streamId: 3, now: programme(-5 * 60, 20, "All-day cricket"), next: null }])).logic
    expect((await open({ nowNext: long })).prompt()).toBeNull()
    expect((await open({ timeshiftHours: 0 })).prompt()).toBeNull()
    expect((await open({ nowNext: fakeNowNext(ok([])).logic })).prompt()).toBeNull()
  })

  it("asks again for another stream, and not again for the same one loading again", async () => {
    const { prompt, send, recalls } = await open()
    send({ type: "startOver.watchLive" })
    send({ type: "player.select", index: 3 })
    await vi.advanceTimersByTimeAsync(0)
    expect(prompt()?.Title).toBe("Cartoons")
    send({ type: "player.retry" })
    send({ type: "player.select", index: 3 })
    await vi.advanceTimersByTimeAsync(0)
    expect(recalls).toHaveLength(2)
  })

  it("in the low-latency player, which has no window, hands over to the TV player at the programme's start", async () => {
    const { send, navigate } = await open({ player: 2, search: "?default=2&ui=8" })
    send({ type: "startOver.begin" })
    expect(navigate.mock.calls.at(-1)?.[1]).toEqual({
      to: `/player?default=2&ui=8&stream=3&from=${encodeURIComponent(new Date(NEWS_START).toISOString())}`,
      replace: false
    })
  })
})

describe("playerMachine: ?stream= and ?from=", () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(T0)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("plays the stream named by id, keeping ?default= in step, and starts its first source at the moment asked for", async () => {
    const from = T0 - 30 * MINUTE
    const { actor, media, attach, navigate, child } = await startPlayer({
      index: 0,
      search: `?stream=4&from=${new Date(from).toISOString()}`,
      streamId: 4,
      startAt: from,
      timeshiftHours: 4,
      nowNext: fakeNowNext(ok(guide)).logic
    })
    expect(navigate.mock.calls.map((call) => call[1])).toEqual([
      { to: `/player?stream=4&from=${encodeURIComponent(new Date(from).toISOString())}&default=3`, replace: true }
    ])
    await attach()
    expect(media.sent("media.load")).toEqual([{ type: "media.load", source: "/live/4/index.m3u8", startAt: from }])
    // a link's moment is the viewer's answer already
    expect(selectStartOverProgramme(child("startOver"))).toBeNull()
    // another stream plays live, and the address no longer names the first one's start
    actor.send({ type: "player.select", index: 2 })
    expect(media.sent("media.load").at(-1)).toEqual({ type: "media.load", source: "/live/3/index.m3u8" })
    expect(selectSearch(actor.getSnapshot())).toBe("?default=2")
  })

  it("says so for a few seconds when the moment is outside the window, playing live", async () => {
    const { send, attach, child } = await startPlayer({ streamId: 3, startAt: T0 - 10 * 3600_000, timeshiftHours: 4 })
    await attach()
    send({ type: "media.startMissed" })
    expect(selectStartMissed(child("startOver"))).toMatch(/outside the channel's time-shift window/)
    await vi.advanceTimersByTimeAsync(6000)
    expect(selectStartMissed(child("startOver"))).toBeNull()
  })

  it("hands a low-latency page opened at a moment over to the TV player, whose window holds it", async () => {
    const search = "?stream=3&from=2030-03-01T20%3A00%3A00.000Z&ui=8"
    const { navigate } = await startPlayer({ player: 2, index: 0, search, streamId: 3, startAt: T0 - 10 * MINUTE })
    expect(navigate.mock.calls.map((call) => call[1]).at(-1)).toEqual({ to: `/player${search}&default=2`, replace: true })
  })

  it("falls back to ?default= for an id the list does not have", async () => {
    const { actor } = await startPlayer({ index: 3, search: "?default=3&stream=99", streamId: 99 })
    expect(actor.getSnapshot().context.index).toBe(3)
  })
})
