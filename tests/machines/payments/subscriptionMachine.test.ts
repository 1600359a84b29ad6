import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import { type Answer, answered, refused, unreachable } from "../../../src/domain/contract/answer.ts"
import { Stream } from "../../../src/domain/Stream.ts"
import {
  RELOAD_FAILED_MESSAGE,
  SUBSCRIPTION_FAILED_MESSAGE,
  selectError,
  selectIsReloading,
  selectReloadError,
  selectReloaded,
  selectStatus,
  selectSubscription,
  subscriptionMachine
} from "../../../src/machines/payments/subscriptionMachine.ts"
import { CONNECTION_HINT, RETRY_HINT } from "../../../src/machines/shared/answer.ts"

const ACTIVE: Answer<"activeSubscription"> = answered({
  resultCode: 1,
  data: { planId: 1, startedAt: "2026-10-23T08:15:42.000Z", expiresAt: "2026-12-23T09:15:42.000Z" }
})
const NONE: Answer<"activeSubscription"> = answered({ resultCode: 3, data: null })

const stream = (id: number, fields: Partial<Stream> = {}) =>
  new Stream({
    id,
    title: `Stream ${id}`,
    src: "/live/a.m3u8",
    src_sldp: null,
    image_location: "/img.svg",
    tags: "",
    tags_sldp: "",
    maintenance_mode: false,
    ...fields
  })
const STREAMS: Answer<"streams"> = answered({
  success: true,
  data: [stream(1), stream(2, { src: null }), stream(3, { maintenance_mode: true }), stream(4, { src: null, src_sldp: "/live/b" })]
})

/** A fake call that answers in turn, repeating its last answer. */
const calls = <T>(answers: ReadonlyArray<() => Promise<T>>) => {
  let count = 0
  return {
    actor: fromPromise<T>(() => {
      const answer = answers[Math.min(count, answers.length - 1)]
      count += 1
      return answer === undefined ? Promise.reject(new Error("no answer")) : answer()
    }),
    count: () => count
  }
}

const start = (
  subscription: ReturnType<typeof calls<Answer<"activeSubscription">>>,
  streams = calls<Answer<"streams">>([async () => STREAMS])
) => createActor(subscriptionMachine.provide({ actors: { loadSubscription: subscription.actor, reloadStreams: streams.actor } })).start()

type Actor = ReturnType<typeof start>
const statusSettled = (actor: Actor) => waitFor(actor, (snapshot) => selectStatus(snapshot) !== "loading")
const reloadSettled = (actor: Actor) => waitFor(actor, (snapshot) => !selectIsReloading(snapshot) && selectStatus(snapshot) !== "loading")

describe("subscriptionMachine", () => {
  it("shows the paid run that covers now", async () => {
    const actor = start(calls<Answer<"activeSubscription">>([async () => ACTIVE]))
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    const snapshot = await statusSettled(actor)
    expect(selectStatus(snapshot)).toBe("active")
    expect(selectSubscription(snapshot)).toEqual({ startedAt: "2026-10-23T08:15:42.000Z", expiresAt: "2026-12-23T09:15:42.000Z" })
    expect(selectReloaded(snapshot)).toBeNull()
    expect(selectReloadError(snapshot)).toBeNull()
  })

  it("knows a viewer without a subscription from a failed check, and checks again on retry", async () => {
    const subscription = calls<Answer<"activeSubscription">>([
      async () => unreachable("network", "offline"),
      async () => answered({ resultCode: 2, data: null }),
      async () => NONE
    ])
    const actor = start(subscription)
    expect(selectStatus(await statusSettled(actor))).toBe("failed")
    expect(selectError(actor.getSnapshot())).toBe(`${SUBSCRIPTION_FAILED_MESSAGE} ${CONNECTION_HINT}`)
    actor.send({ type: "subscription.retry" })
    expect(selectError(await statusSettled(actor))).toBe(`${SUBSCRIPTION_FAILED_MESSAGE} ${RETRY_HINT}`)
    actor.send({ type: "subscription.retry" })
    const snapshot = await statusSettled(actor)
    expect(selectStatus(snapshot)).toBe("none")
    expect(selectSubscription(snapshot)).toEqual({ startedAt: null, expiresAt: null })
    expect(selectError(snapshot)).toBeNull()
    expect(subscription.count()).toBe(3)
  })

  it("reloads the streams and the subscription with them, and counts the streams that play", async () => {
    const subscription = calls<Answer<"activeSubscription">>([async () => NONE, async () => ACTIVE])
    const streams = calls<Answer<"streams">>([async () => STREAMS])
    const actor = start(subscription, streams)
    expect(selectStatus(await statusSettled(actor))).toBe("none")
    expect(streams.count()).toBe(0)

    actor.send({ type: "streams.reload" })
    expect(selectIsReloading(actor.getSnapshot())).toBe(true)
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    // a second press while reloading starts nothing more
    actor.send({ type: "streams.reload" })
    const snapshot = await reloadSettled(actor)
    expect(selectStatus(snapshot)).toBe("active")
    expect(selectReloaded(snapshot)).toEqual({ total: 4, watchable: 2 })
    expect(streams.count()).toBe(1)
    expect(subscription.count()).toBe(2)
  })

  it("says the reload failed, keeps the reload on offer, and succeeds on the next press", async () => {
    const streams = calls<Answer<"streams">>([
      async () => refused(503, "busy"),
      async () => unreachable("timeout", "The server took too long to answer."),
      async () => STREAMS
    ])
    const actor = start(calls<Answer<"activeSubscription">>([async () => ACTIVE]), streams)
    await statusSettled(actor)
    actor.send({ type: "streams.reload" })
    expect(selectReloadError(await reloadSettled(actor))).toBe(`${RELOAD_FAILED_MESSAGE} ${RETRY_HINT}`)
    expect(selectReloaded(actor.getSnapshot())).toBeNull()
    actor.send({ type: "streams.reload" })
    expect(selectReloadError(await reloadSettled(actor))).toBe(`${RELOAD_FAILED_MESSAGE} ${CONNECTION_HINT}`)
    actor.send({ type: "streams.reload" })
    const snapshot = await reloadSettled(actor)
    expect(selectReloadError(snapshot)).toBeNull()
    expect(selectReloaded(snapshot)).toEqual({ total: 4, watchable: 2 })
    expect(streams.count()).toBe(3)
  })

  it("recovers a failed subscription check through a reload too", async () => {
    const actor = start(calls<Answer<"activeSubscription">>([async () => refused(500, "x"), async () => ACTIVE]))
    expect(selectStatus(await statusSettled(actor))).toBe("failed")
    actor.send({ type: "streams.reload" })
    expect(selectStatus(await reloadSettled(actor))).toBe("active")
  })
})
