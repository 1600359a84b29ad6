import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type Answer, answered, refused } from "../../../src/domain/contract/answer.ts"
import { CATCH_UP_RATE, LIVE_EDGE_TOLERANCE_S } from "../../../src/domain/PlayerLimits.ts"
import type { EpgEntry } from "../../../src/domain/Schedule.ts"
import {
  GUIDE_WINDOW_REFRESH_MS,
  GUIDE_WINDOW_RETRY_MS,
  playerGuideWindowMachine,
  selectWindowProgrammes
} from "../../../src/machines/player/playerGuideWindowMachine.ts"
import { selectIsCatchingUp } from "../../../src/machines/player/playerLiveEdgeMachine.ts"
import { liveTiming, startPlayer } from "../../support/playerHarness.ts"

const T0 = Date.parse("2030-03-01T20:00:00.000Z")
const EPOCH = T0 - 3600_000
/** An hour's window ending at T0, `behind` seconds behind its edge. */
const behindBy = (behind: number) => liveTiming({ currentTime: 3600 - behind, start: 0, end: 3600, latency: behind, epoch: EPOCH })

const match: EpgEntry = { StartTime: "2030-03-01T19:30:00.000Z", EndTime: "2030-03-01T21:30:00.000Z", Title: "Cup Final", Subtitle: "" }

describe("playerMachine: seeking in wall-clock time, and catching up", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("seeks to a moment by the window's dates, clamps one before the window, and drops one after its edge", async () => {
    const { media, attach, send } = await startPlayer()
    await attach()
    send(behindBy(6))
    send({ type: "player.seekToDate", at: Date.parse(match.StartTime) })
    expect(media.sent("media.seekTo")).toEqual([{ type: "media.seekTo", time: 1800 }])
    expect(media.sent("media.play")).toEqual([])
    send({ type: "player.seekToDate", at: EPOCH - 60_000 })
    expect(media.sent("media.seekTo").at(-1)).toEqual({ type: "media.seekTo", time: -60 })
    send({ type: "player.seekToDate", at: T0 + 60_000 })
    send(behindBy(6))
    expect(media.sent("media.seekTo")).toHaveLength(2)
  })

  it("forgets a moment it could not seek to yet once the source stops", async () => {
    const { media, attach, send } = await startPlayer()
    await attach()
    send({ type: "player.seekToDate", at: T0 - 600_000, play: true })
    send({ type: "player.select", index: 3 })
    send({ type: "media.unavailable" })
    send(behindBy(6))
    expect(media.sent("media.seekTo")).toEqual([])
  })

  it(`catches up at ${CATCH_UP_RATE}× when asked, behind live only, until within ${LIVE_EDGE_TOLERANCE_S} s of it`, async () => {
    const { media, attach, send, child } = await startPlayer()
    await attach()
    send(behindBy(5))
    send({ type: "player.catchUp" })
    expect(selectIsCatchingUp(child("liveEdge"))).toBe(false)
    send(behindBy(600))
    send({ type: "player.catchUp" })
    expect(selectIsCatchingUp(child("liveEdge"))).toBe(true)
    expect(media.sent("media.rate")).toEqual([{ type: "media.rate", rate: CATCH_UP_RATE }])
    send(behindBy(LIVE_EDGE_TOLERANCE_S + 1))
    expect(selectIsCatchingUp(child("liveEdge"))).toBe(true)
    send(behindBy(LIVE_EDGE_TOLERANCE_S))
    expect(selectIsCatchingUp(child("liveEdge"))).toBe(false)
    expect(media.sent("media.rate").at(-1)).toEqual({ type: "media.rate", rate: 1 })

    // pressed again it stops; going to live stops it too
    send(behindBy(600))
    send({ type: "player.catchUp" })
    send({ type: "player.catchUp" })
    send({ type: "player.catchUp" })
    send({ type: "player.goLive" })
    expect(media.sent("media.rate").map((command) => command.rate)).toEqual([CATCH_UP_RATE, 1, CATCH_UP_RATE, 1, CATCH_UP_RATE, 1])
    expect(media.sent("media.seekToLive")).toHaveLength(1)
  })
})

describe("the guide's programmes in the time-shift window", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const loader = (...results: Array<Answer<"guideWindow">>) => {
    const asked: Array<number> = []
    const logic = fromPromise<Answer<"guideWindow">, { readonly streamId: number }>(async ({ input }) => {
      asked.push(input.streamId)
      const result = results.length > 1 ? results.shift() : results[0]
      if (result === undefined) throw new Error("no answer")
      return result
    })
    return { asked, logic }
  }
  const window = (programmes: ReadonlyArray<EpgEntry>): Answer<"guideWindow"> =>
    answered({ success: true, data: { from: "2030-03-01T16:00:00.000Z", to: "2030-03-01T20:00:00.000Z", programmes } })

  it("loads the stream's window, again every few minutes, and retries a failure keeping what it knew", async () => {
    const { asked, logic } = loader(window([match]), refused(500, "down"), window([]))
    const actor = createActor(playerGuideWindowMachine.provide({ actors: { loadWindow: logic } }), { input: { streamId: 7 } }).start()
    await vi.advanceTimersByTimeAsync(0)
    expect(asked).toEqual([7])
    expect(selectWindowProgrammes(actor.getSnapshot()).map((entry) => entry.Title)).toEqual(["Cup Final"])
    await vi.advanceTimersByTimeAsync(GUIDE_WINDOW_REFRESH_MS)
    expect(asked).toHaveLength(2)
    expect(selectWindowProgrammes(actor.getSnapshot())).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(GUIDE_WINDOW_RETRY_MS)
    expect(asked).toHaveLength(3)
    expect(selectWindowProgrammes(actor.getSnapshot())).toEqual([])
  })

  it("asks nothing where no seek bar marks programmes", async () => {
    const { asked, logic } = loader(window([match]))
    createActor(playerGuideWindowMachine.provide({ actors: { loadWindow: logic } }), { input: { streamId: null } }).start()
    await vi.advanceTimersByTimeAsync(GUIDE_WINDOW_REFRESH_MS * 2)
    expect(asked).toEqual([])
  })

  it("is loaded for the TV player's stream as it plays, and not by the low-latency player", async () => {
    for (const player of [1, 2] as const) {
      const { asked, logic } = loader(window([match]))
      const { attach, send } = await startPlayer({
        player,
        guideWindow: playerGuideWindowMachine.provide({ actors: { loadWindow: logic } })
      })
      await attach()
      send({ type: "player.select", index: 3 })
      await vi.advanceTimersByTimeAsync(0)
      expect(asked).toEqual(player === 1 ? [3, 4] : [])
    }
  })
})
