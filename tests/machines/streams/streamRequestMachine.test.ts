import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type Answer, answered, refused, SESSION_ENDED, unreachable } from "../../../src/domain/contract/answer.ts"
import type { NewTicket } from "../../../src/domain/Ticket.ts"
import {
  REQUEST_FAILURE_TITLE,
  REQUEST_SUCCESS,
  selectIsSendingRequest,
  selectRequestText,
  streamRequestMachine
} from "../../../src/machines/streams/streamRequestMachine.ts"

const start = (answer: Answer<"createTicket"> = answered({ success: true, resultCode: 1 })) => {
  const submitTicket = vi.fn(async (_: NewTicket): Promise<Answer<"createTicket">> => answer)
  const notify = vi.fn()
  const actor = createActor(
    streamRequestMachine.provide({ actors: { submitTicket: fromPromise(({ input }) => submitTicket(input)) }, actions: { notify } })
  ).start()
  const notified = () => notify.mock.calls.map((call) => call[1])
  return { actor, submitTicket, notified }
}

describe("streamRequestMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("does nothing when the text is empty", async () => {
    const { actor, submitTicket } = start()
    actor.send({ type: "request.submit" })
    actor.send({ type: "request.change", text: "   " })
    actor.send({ type: "request.submit" })
    await vi.runAllTimersAsync()
    expect(submitTicket).not.toHaveBeenCalled()
    expect(actor.getSnapshot().value).toBe("editing")
  })

  it("sends a category 3 'stream request' ticket and confirms it", async () => {
    const { actor, submitTicket, notified } = start()
    actor.send({ type: "request.change", text: "Premier League on Sports Three" })
    actor.send({ type: "request.submit" })
    expect(selectIsSendingRequest(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(submitTicket).toHaveBeenCalledWith({ type: 3, subject: "stream request", description: "Premier League on Sports Three" })
    expect(notified()).toEqual([{ tone: "success", title: "Success!", message: "Your stream request has been submitted!" }])
    expect(REQUEST_SUCCESS).toEqual(notified()[0])
    expect(actor.getSnapshot().status).toBe("done")
  })

  it("reports a refused request with the server's detail and keeps the text", async () => {
    const { actor, notified } = start(refused(429, "You can open 10 tickets an hour. Try again in 12 minutes.", 19))
    actor.send({ type: "request.change", text: "BBC" })
    actor.send({ type: "request.submit" })
    await vi.runAllTimersAsync()
    expect(notified()).toEqual([
      { tone: "error", title: "Something went wrong", message: "You can open 10 tickets an hour. Try again in 12 minutes." }
    ])
    expect(REQUEST_FAILURE_TITLE).toBe("Something went wrong")
    expect(actor.getSnapshot().value).toBe("editing")
    expect(selectRequestText(actor.getSnapshot())).toBe("BBC")
  })

  it("lets the dialog close while a request hangs, without a word about it", async () => {
    const notify = vi.fn()
    const actor = createActor(
      streamRequestMachine.provide({
        actors: { submitTicket: fromPromise<Answer<"createTicket">, NewTicket>(() => new Promise(() => undefined)) },
        actions: { notify }
      })
    ).start()
    actor.send({ type: "request.change", text: "TV2" })
    actor.send({ type: "request.submit" })
    expect(selectIsSendingRequest(actor.getSnapshot())).toBe(true)
    actor.send({ type: "request.cancel" })
    expect(actor.getSnapshot().value).toBe("cancelled")
    await vi.runAllTimersAsync()
    expect(notify).not.toHaveBeenCalled()
  })

  it("treats a result code other than 1 as a failure", async () => {
    const { actor, notified } = start(answered({ success: true, resultCode: 2, detail: "Ticket could not be saved" }))
    actor.send({ type: "request.change", text: "Sports Three please" })
    actor.send({ type: "request.submit" })
    await vi.runAllTimersAsync()
    expect(notified()).toEqual([{ tone: "error", title: "Something went wrong", message: "Ticket could not be saved" }])
  })

  it("reports a call that got no answer with why", async () => {
    const { actor, notified } = start(unreachable("network", "Could not reach the server. Check your connection and try again."))
    actor.send({ type: "request.change", text: "Sports Three please" })
    actor.send({ type: "request.submit" })
    await vi.runAllTimersAsync()
    expect(notified()).toEqual([
      { tone: "error", title: "Something went wrong", message: "Could not reach the server. Check your connection and try again." }
    ])
    expect(selectRequestText(actor.getSnapshot())).toBe("Sports Three please")
  })

  it("reports a call that ended the session without a detail", async () => {
    const { actor, notified } = start(SESSION_ENDED)
    actor.send({ type: "request.change", text: "Sports Three please" })
    actor.send({ type: "request.submit" })
    await vi.runAllTimersAsync()
    expect(notified()).toEqual([{ tone: "error", title: "Something went wrong", message: "" }])
  })

  it("ends without sending when cancelled", () => {
    const { actor, submitTicket } = start()
    actor.send({ type: "request.change", text: "Something" })
    actor.send({ type: "request.cancel" })
    expect(actor.getSnapshot().status).toBe("done")
    expect(submitTicket).not.toHaveBeenCalled()
  })

  it("ignores a second submit while the request is being sent: one ticket, one confirmation", async () => {
    const { actor, submitTicket, notified } = start()
    actor.send({ type: "request.change", text: "Sports Three please" })
    actor.send({ type: "request.submit" })
    actor.send({ type: "request.submit" })
    expect(selectIsSendingRequest(actor.getSnapshot())).toBe(true)
    await vi.runAllTimersAsync()
    expect(submitTicket).toHaveBeenCalledTimes(1)
    expect(notified()).toEqual([REQUEST_SUCCESS])
  })
})
