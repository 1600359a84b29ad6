import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { answered } from "../../../src/domain/contract/answer.ts"
import { CHANNEL_RETRY_MS, CHANNEL_STARTING_MESSAGE, SIGNAL_LOST_MESSAGE } from "../../../src/machines/player/playerPage.ts"
import { selectChannelNotice } from "../../../src/machines/player/playerSelectors.ts"
import { answers, streams } from "../../support/machineFixtures.ts"
import { startPlayer } from "../../support/playerHarness.ts"

describe("playerMachine: a channel our origin has no playlist for right now", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("says the channel is starting, asks again by itself, and plays once it is there", async () => {
    const { actor, media, attach, send } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: streams }))
    })
    await attach()
    expect(media.sent("media.load")).toHaveLength(1)
    send({ type: "media.unavailable" })
    expect(selectChannelNotice(actor.getSnapshot())).toBe(CHANNEL_STARTING_MESSAGE)
    expect(media.sent("media.stop")).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(CHANNEL_RETRY_MS - 1)
    expect(media.sent("media.load")).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(media.sent("media.load")).toHaveLength(2)
    expect(selectChannelNotice(actor.getSnapshot())).toBeNull()
    send({ type: "media.playing" })
    expect(selectChannelNotice(actor.getSnapshot())).toBeNull()
  })

  it("says the signal was lost when a channel that played goes away, and a new choice starts afresh", async () => {
    const { actor, media, attach, send } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: streams }))
    })
    await attach()
    send({ type: "media.playing" })
    send({ type: "media.unavailable" })
    expect(selectChannelNotice(actor.getSnapshot())).toBe(SIGNAL_LOST_MESSAGE)
    await vi.advanceTimersByTimeAsync(CHANNEL_RETRY_MS)
    send({ type: "media.unavailable" })
    expect(selectChannelNotice(actor.getSnapshot())).toBe(SIGNAL_LOST_MESSAGE)
    send({ type: "player.select", index: 3 })
    expect(selectChannelNotice(actor.getSnapshot())).toBeNull()
    send({ type: "media.unavailable" })
    expect(selectChannelNotice(actor.getSnapshot())).toBe(CHANNEL_STARTING_MESSAGE)
    expect(media.sent("media.load").length).toBeGreaterThanOrEqual(3)
  })
})
