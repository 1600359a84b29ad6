import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { fromPromise } from "xstate"
import type { StreamAccess } from "../../../src/domain/Connection.ts"
import { type Answer, answered, refused, unreachable } from "../../../src/domain/contract/answer.ts"
import { ACCESS_FAILED_MESSAGE, playerAccessMachine, selectAccess } from "../../../src/machines/player/playerAccessMachine.ts"
import { selectIsLive, selectLatencyMs } from "../../../src/machines/player/playerLiveEdgeMachine.ts"
import { selectIsStopped } from "../../../src/machines/player/playerSelectors.ts"
import { CONNECTION_HINT, RETRY_HINT } from "../../../src/machines/shared/answer.ts"
import { answers, streams } from "../../support/machineFixtures.ts"
import { liveTiming, startPlayer } from "../../support/playerHarness.ts"

const signed = streams.map((stream) => ({ ...stream, src: stream.src === null ? null : `${stream.src}?grant=G${stream.id}` }))
const elsewhere = {
  id: 41,
  stream: "Sports Two",
  app: "tv",
  device: "Chrome on Windows",
  network: "203.0.113.*",
  since: "2026-11-25T20:14:00.000Z"
}
const reply = (access: StreamAccess["access"], extra: Partial<StreamAccess> = {}): Answer<"streamAccess"> =>
  answered({ success: true, access, maxStreams: 1, playing: [], ...extra })

const accessWith = (
  checks: Array<Answer<"streamAccess">>,
  renewed: Answer<"streams"> = answered({ success: true, data: signed }),
  end: Answer<"endStream"> = answered({ success: true })
) => {
  const asked: Array<string> = []
  const ended: Array<number> = []
  const machine = playerAccessMachine.provide({
    actors: {
      checkAccess: fromPromise<Answer<"streamAccess">, { readonly grant: string }>(async ({ input }) => {
        asked.push(input.grant)
        const check = checks.shift()
        if (check === undefined) throw new Error("no answer given")
        return check
      }),
      endStream: fromPromise<Answer<"endStream">, { readonly id: number }>(async ({ input }) => {
        ended.push(input.id)
        return end
      }),
      renewStreams: answers("streams", renewed)
    }
  })
  return { machine, asked, ended }
}

describe("playerMachine: a stream our origin refused", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("over the account's limit: says where the others play, ends the oldest on request and plays here", async () => {
    const access = accessWith([reply("limit", { playing: [elsewhere] }), reply("ok")])
    const { media, attach, send, child } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: signed })),
      access: access.machine
    })
    await attach()
    expect(media.sent("media.load").map((command) => command.source)).toEqual(["/live/3/index.m3u8?grant=G3"])
    send({ type: "media.refused", status: 429 })
    await vi.advanceTimersByTimeAsync(0)
    expect(access.asked).toEqual(["G3"])
    expect(media.sent("media.stop")).toHaveLength(1)
    expect(selectAccess(child("access"))).toEqual({ kind: "limit", maxStreams: 1, playing: [elsewhere], ending: false })
    send({ type: "access.endOldest" })
    await vi.advanceTimersByTimeAsync(0)
    expect(access.ended).toEqual([41])
    expect(selectAccess(child("access"))).toBeNull()
    expect(media.sent("media.load").map((command) => command.source)).toEqual([
      "/live/3/index.m3u8?grant=G3",
      "/live/3/index.m3u8?grant=G3"
    ])
  })

  it("renews a grant too old to open without a word, and plays the renewed list's source", async () => {
    const renewed = signed.map((stream) => ({
      ...stream,
      src: stream.src === null ? null : `${stream.src.split("?")[0]}?grant=N${stream.id}`
    }))
    const access = accessWith([reply("expired")], answered({ success: true, data: renewed }))
    const { media, attach, send, child } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: signed })),
      access: access.machine
    })
    await attach()
    send({ type: "media.refused", status: 403 })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectAccess(child("access"))).toBeNull()
    expect(
      media
        .sent("media.load")
        .map((command) => command.source)
        .at(-1)
    ).toBe("/live/3/index.m3u8?grant=N3")
  })

  it("tells the viewer staff ended the session, and starts afresh only when asked", async () => {
    const access = accessWith([reply("ended", { reason: "staff" })])
    const { media, attach, send, child } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: signed })),
      access: access.machine
    })
    await attach()
    send({ type: "media.refused", status: 410 })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectAccess(child("access"))).toEqual({ kind: "ended", stop: "staff" })
    expect(media.sent("media.load")).toHaveLength(1)
    send({ type: "access.retry" })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectAccess(child("access"))).toBeNull()
    expect(media.sent("media.load")).toHaveLength(2)
  })

  it("is stopped, not live, once the origin refuses it, and plays (and reads the live edge) again when let through", async () => {
    const access = accessWith([reply("ended", { reason: "replaced" }), reply("ok")])
    const { actor, attach, send, child } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: signed })),
      access: access.machine
    })
    await attach()
    send({ type: "media.playing" })
    send(liveTiming({ latency: 1.4 }))
    expect(selectIsLive(child("liveEdge"))).toBe(true)
    expect(selectIsStopped(actor.getSnapshot())).toBe(false)
    send({ type: "media.refused", status: 410 })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectIsStopped(actor.getSnapshot())).toBe(true)
    expect(selectIsLive(child("liveEdge"))).toBe(false)
    expect(selectLatencyMs(child("liveEdge"))).toBeNull()
    // the live edge's polling finds no source to read while it is stopped
    await vi.advanceTimersByTimeAsync(1000)
    expect(selectIsLive(child("liveEdge"))).toBe(false)
    send({ type: "access.retry" })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectIsStopped(actor.getSnapshot())).toBe(false)
    send(liveTiming({ latency: 1.4 }))
    expect(selectIsLive(child("liveEdge"))).toBe(true)
  })

  it("clears what it said once the viewer picks another stream", async () => {
    const access = accessWith([reply("limit", { playing: [elsewhere] })])
    const { attach, send, child } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: signed })),
      access: access.machine
    })
    await attach()
    send({ type: "media.refused", status: 429 })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectAccess(child("access"))?.kind).toBe("limit")
    send({ type: "player.select", index: 3 })
    expect(selectAccess(child("access"))).toBeNull()
  })

  it.each([
    ["the check got no answer", unreachable("network", "Could not reach the server."), CONNECTION_HINT],
    ["the server failed", refused(500, "Internal server error"), RETRY_HINT],
    ["the server calls the grant invalid", reply("invalid"), CONNECTION_HINT]
  ] as ReadonlyArray<[string, Answer<"streamAccess">, string]>)(
    "says the stream could not be opened when %s, and asks again on retry",
    async (_, failure, hint) => {
      const access = accessWith([failure, reply("ok")])
      const { media, attach, send, child } = await startPlayer({
        index: 2,
        loaded: answers("streams", answered({ success: true, data: signed })),
        access: access.machine
      })
      await attach()
      send({ type: "media.refused", status: 403 })
      await vi.advanceTimersByTimeAsync(0)
      expect(selectAccess(child("access"))).toEqual({ kind: "failed", message: `${ACCESS_FAILED_MESSAGE} ${hint}` })
      send({ type: "access.retry" })
      await vi.advanceTimersByTimeAsync(0)
      expect(access.asked).toEqual(["G3", "G3"])
      expect(selectAccess(child("access"))).toBeNull()
      expect(media.sent("media.load")).toHaveLength(2)
    }
  )

  it("says the stream could not be opened when a renewed list does not come", async () => {
    const access = accessWith([reply("expired")], refused(429, "Too many requests. Try again in 9 seconds."))
    const { attach, send, child } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: signed })),
      access: access.machine
    })
    await attach()
    send({ type: "media.refused", status: 403 })
    await vi.advanceTimersByTimeAsync(0)
    expect(selectAccess(child("access"))).toEqual({
      kind: "failed",
      message: `${ACCESS_FAILED_MESSAGE} Too many requests. Try again in 9 seconds.`
    })
  })

  it("asks again after ending the oldest stream, even when that call was not heard", async () => {
    const access = accessWith(
      [reply("limit", { playing: [elsewhere] }), reply("limit", { playing: [elsewhere] })],
      undefined,
      unreachable("timeout", "The server took too long to answer.")
    )
    const { attach, send, child } = await startPlayer({
      index: 2,
      loaded: answers("streams", answered({ success: true, data: signed })),
      access: access.machine
    })
    await attach()
    send({ type: "media.refused", status: 429 })
    await vi.advanceTimersByTimeAsync(0)
    send({ type: "access.endOldest" })
    await vi.advanceTimersByTimeAsync(0)
    expect(access.ended).toEqual([41])
    expect(access.asked).toEqual(["G3", "G3"])
    expect(selectAccess(child("access"))).toEqual({ kind: "limit", maxStreams: 1, playing: [elsewhere], ending: false })
  })
})
