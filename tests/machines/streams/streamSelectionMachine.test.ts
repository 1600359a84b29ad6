import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type Answer, answered, refused, unreachable } from "../../../src/domain/contract/answer.ts"
import { PURCHASE, STREAM_MAINTENANCE } from "../../../src/domain/Maintenance.ts"
import type { PlayerChoice } from "../../../src/domain/Stream.ts"
import type { NewTicket } from "../../../src/domain/Ticket.ts"
import { streamRequestMachine } from "../../../src/machines/streams/streamRequestMachine.ts"
import {
  STREAMS_FAILED_MESSAGE,
  selectIsLoading,
  selectLoadError,
  selectModal,
  selectPlayerChoice,
  selectStreamRequest,
  selectStreams,
  streamSelectionMachine
} from "../../../src/machines/streams/streamSelectionMachine.ts"
import { answers, streams } from "../../support/machineFixtures.ts"

const start = ({
  stored = 2 as PlayerChoice,
  loaded = answers("streams", answered({ success: true, data: streams })),
  ticket = answered({ success: true, resultCode: 1 }) as Answer<"createTicket">
} = {}) => {
  const submitTicket = vi.fn(async (_: NewTicket): Promise<Answer<"createTicket">> => ticket)
  const actions = { navigate: vi.fn(), persistPlayerChoice: vi.fn() }
  const actor = createActor(
    streamSelectionMachine.provide({
      actors: {
        readPlayerChoice: fromPromise(async () => stored),
        loadStreams: loaded,
        streamRequest: streamRequestMachine.provide({ actors: { submitTicket: fromPromise(({ input }) => submitTicket(input)) } })
      },
      actions
    })
  ).start()
  return { actor, actions, submitTicket }
}

const paramsOf = (spy: ReturnType<typeof vi.fn>) => spy.mock.calls.map((call) => call[1])

describe("streamSelectionMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("loads the streams and the stored player choice", async () => {
    const { actor } = start({ stored: 1 })
    expect(selectIsLoading(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(selectIsLoading(actor.getSnapshot())).toBe(false)
    expect(selectStreams(actor.getSnapshot())).toEqual(streams)
    expect(selectPlayerChoice(actor.getSnapshot())).toBe(1)
  })

  it.each([
    [
      "nothing answered",
      unreachable("network", "Could not reach the server. Check your connection and try again."),
      "Check your connection and try again."
    ],
    ["a proxy's HTML page (SPEC's 'content type' fallback)", refused(404, "content type"), "Please try again in a moment."],
    ["a rate limit", refused(429, "Too many requests. Try again in 9 seconds."), "Too many requests. Try again in 9 seconds."]
  ] as ReadonlyArray<[string, Answer<"streams">, string]>)(
    "says the streams could not be loaded in plain words after %s",
    async (_, answer, hint) => {
      const { actor } = start({ loaded: answers("streams", answer) })
      await vi.runAllTimersAsync()
      expect(selectLoadError(actor.getSnapshot())).toBe(`${STREAMS_FAILED_MESSAGE} ${hint}`)
    }
  )

  it("shows a retryable error when the streams cannot be loaded", async () => {
    const { actor } = start({
      loaded: answers("streams", refused(500, "Database unavailable"), answered({ success: true, data: streams }))
    })
    await vi.runAllTimersAsync()
    expect(selectLoadError(actor.getSnapshot())).toBe(`${STREAMS_FAILED_MESSAGE} Please try again in a moment.`)
    actor.send({ type: "streams.retry" })
    await vi.runAllTimersAsync()
    expect(selectLoadError(actor.getSnapshot())).toBeNull()
    expect(selectStreams(actor.getSnapshot())).toHaveLength(4)
  })

  it("opens the maintenance modal for a stream in maintenance", async () => {
    const { actor, actions } = start()
    await vi.runAllTimersAsync()
    actor.send({ type: "stream.choose", index: 0 })
    expect(selectModal(actor.getSnapshot())).toBe("maintenance")
    expect(STREAM_MAINTENANCE.title).toBe("Steam under maintenance")
    expect(STREAM_MAINTENANCE.text).toMatch(/vedlikehold/)
    actor.send({ type: "modal.close" })
    expect(selectModal(actor.getSnapshot())).toBe("none")
    expect(actions.navigate).not.toHaveBeenCalled()
  })

  it("opens the purchase modal for a stream without a source; View Plans goes to /subscription", async () => {
    const { actor, actions } = start()
    await vi.runAllTimersAsync()
    actor.send({ type: "stream.choose", index: 1 })
    expect(selectModal(actor.getSnapshot())).toBe("purchase")
    expect([PURCHASE.title, PURCHASE.button]).toEqual(["Purchase a subscription", "View Plans"])
    actor.send({ type: "plans.view" })
    expect(selectModal(actor.getSnapshot())).toBe("none")
    expect(paramsOf(actions.navigate)).toEqual([{ to: "/subscription" }])
  })

  it("plays a stream in the chosen player with its index", async () => {
    const { actor, actions } = start()
    await vi.runAllTimersAsync()
    actor.send({ type: "stream.choose", index: 2 })
    actor.send({ type: "player.toggle" })
    actor.send({ type: "stream.choose", index: 3 })
    expect(paramsOf(actions.navigate)).toEqual([{ to: "/playersldp?default=2" }, { to: "/player?default=3" }])
    expect(selectModal(actor.getSnapshot())).toBe("none")
  })

  it("lets the low-latency player fall back to src when src_sldp is missing", async () => {
    const { actor, actions } = start({ stored: 2 })
    await vi.runAllTimersAsync()
    actor.send({ type: "stream.choose", index: 3 })
    expect(paramsOf(actions.navigate)).toEqual([{ to: "/playersldp?default=3" }])
  })

  it("toggles the player between 2 and 1 and persists every choice", async () => {
    const { actor, actions } = start()
    await vi.runAllTimersAsync()
    expect(selectPlayerChoice(actor.getSnapshot())).toBe(2)
    actor.send({ type: "player.toggle" })
    expect(selectPlayerChoice(actor.getSnapshot())).toBe(1)
    actor.send({ type: "player.toggle" })
    expect(selectPlayerChoice(actor.getSnapshot())).toBe(2)
    expect(paramsOf(actions.persistPlayerChoice)).toEqual([{ choice: 1 }, { choice: 2 }])
  })

  it("switches the player while the streams load and after they failed, keeping the switch once they are in", async () => {
    let answer: (value: Answer<"streams">) => void = () => undefined
    const { actor, actions } = start({
      loaded: fromPromise<Answer<"streams">>(() => new Promise((resolve) => (answer = resolve)))
    })
    await vi.advanceTimersByTimeAsync(0)
    expect(actor.getSnapshot().hasTag("loading")).toBe(true)
    actor.send({ type: "player.toggle" })
    expect(selectPlayerChoice(actor.getSnapshot())).toBe(1)
    answer(answered({ success: true, data: streams }))
    await vi.advanceTimersByTimeAsync(0)
    expect(selectPlayerChoice(actor.getSnapshot())).toBe(1)
    const failing = start({ loaded: answers("streams", refused(500, "x")) })
    await vi.runAllTimersAsync()
    failing.actor.send({ type: "player.toggle" })
    expect(selectPlayerChoice(failing.actor.getSnapshot())).toBe(1)
    expect(paramsOf(actions.persistPlayerChoice)).toEqual([{ choice: 1 }])
    expect(paramsOf(failing.actions.persistPlayerChoice)).toEqual([{ choice: 1 }])
  })

  it("ignores an index that is not in the list", async () => {
    const { actor, actions } = start()
    await vi.runAllTimersAsync()
    actor.send({ type: "stream.choose", index: 9 })
    expect(actions.navigate).not.toHaveBeenCalled()
    expect(selectModal(actor.getSnapshot())).toBe("none")
  })

  it("opens the request modal and returns to the grid once the request is sent", async () => {
    const { actor, submitTicket } = start()
    await vi.runAllTimersAsync()
    actor.send({ type: "request.open" })
    expect(selectModal(actor.getSnapshot())).toBe("request")
    const request = selectStreamRequest(actor.getSnapshot())
    expect(request).toBeDefined()
    // the grid forwards what the modal's form sends
    actor.send({ type: "request.change", text: "Sports Three" })
    expect(request?.getSnapshot().context.text).toBe("Sports Three")
    actor.send({ type: "request.submit" })
    await vi.runAllTimersAsync()
    expect(submitTicket).toHaveBeenCalledWith({ type: 3, subject: "stream request", description: "Sports Three" })
    expect(selectModal(actor.getSnapshot())).toBe("none")
    expect(selectStreamRequest(actor.getSnapshot())).toBeUndefined()
  })

  it("closes the request modal without sending", async () => {
    const { actor, submitTicket } = start()
    await vi.runAllTimersAsync()
    actor.send({ type: "request.open" })
    actor.send({ type: "request.change", text: "Something" })
    actor.send({ type: "modal.close" })
    expect(selectModal(actor.getSnapshot())).toBe("none")
    expect(submitTicket).not.toHaveBeenCalled()
  })

  it("opens the request modal before the streams are in, and after they failed", async () => {
    const { actor, submitTicket } = start({ loaded: answers("streams", refused(500, "Database unavailable")) })
    expect(selectIsLoading(actor.getSnapshot())).toBe(true)
    actor.send({ type: "request.open" })
    expect(selectModal(actor.getSnapshot())).toBe("request")
    await vi.runAllTimersAsync()
    expect(selectLoadError(actor.getSnapshot())).not.toBeNull()
    expect(selectModal(actor.getSnapshot())).toBe("request")
    actor.send({ type: "request.change", text: "Sports Three" })
    actor.send({ type: "request.submit" })
    await vi.runAllTimersAsync()
    expect(submitTicket).toHaveBeenCalledWith({ type: 3, subject: "stream request", description: "Sports Three" })
    expect(selectModal(actor.getSnapshot())).toBe("none")
    actor.send({ type: "request.open" })
    expect(selectModal(actor.getSnapshot())).toBe("request")
  })

  it("keeps one dialog at a time", async () => {
    const { actor, actions } = start()
    await vi.runAllTimersAsync()
    actor.send({ type: "request.open" })
    actor.send({ type: "stream.choose", index: 0 })
    expect(selectModal(actor.getSnapshot())).toBe("request")
    expect(actions.navigate).not.toHaveBeenCalled()
    actor.send({ type: "modal.close" })
    expect(selectModal(actor.getSnapshot())).toBe("none")
  })
})
