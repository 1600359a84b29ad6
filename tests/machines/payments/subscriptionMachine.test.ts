import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import type { CallResult } from "../../../src/domain/api.ts"
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
import { CONNECTION_HINT, RETRY_HINT } from "../../../src/machines/shared/apiResult.ts"

type SubscriptionAnswer = CallResult<"activeSubscription"> | undefined
type StreamsAnswer = CallResult<"streams"> | undefined

const ACTIVE: SubscriptionAnswer = {
  resultCode: 1,
  data: { planId: 1, startedAt: "2026-10-23T08:15:42.000Z", expiresAt: "2026-12-23T09:15:42.000Z" }
}
const NONE: SubscriptionAnswer = { resultCode: 3, data: null }

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
const STREAMS: StreamsAnswer = {
  success: true,
  data: [stream(1), stream(2, { src: null }), stream(3, { maintenance_mode: true }), stream(4, { src: null, src_sldp: "/live/b" })]
}

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

const start = (subscription: ReturnType<typeof calls<SubscriptionAnswer>>, streams = calls<StreamsAnswer>([async () => STREAMS])) =>
  createActor(subscriptionMachine.provide({ actors: { loadSubscription: subscription.actor, reloadStreams: streams.actor } })).start()

type Actor = ReturnType<typeof start>
const statusSettled = (actor: Actor) => waitFor(actor, (snapshot) => selectStatus(snapshot) !== "loading")
const reloadSettled = (actor: Actor) => waitFor(actor, (snapshot) => !selectIsReloading(snapshot) && selectStatus(snapshot) !== "loading")

describe("subscriptionMachine", () => {
  it("shows the paid run that covers now", async () => {
    const actor = start(calls<SubscriptionAnswer>([async () => ACTIVE]))
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    const snapshot = await statusSettled(actor)
    expect(selectStatus(snapshot)).toBe("active")
    expect(selectSubscription(snapshot)).toEqual({ startedAt: "2026-10-23T08:15:42.000Z", expiresAt: "2026-12-23T09:15:42.000Z" })
    expect(selectReloaded(snapshot)).toBeNull()
    expect(selectReloadError(snapshot)).toBeNull()
  })

  it("knows a viewer without a subscription from a failed check, and checks again on retry", async () => {
    const subscription = calls<SubscriptionAnswer>([
      async () => ({ success: false, status: 0, detail: "offline" }),
      async () => ({ resultCode: 2, data: null }),
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
    const subscription = calls<SubscriptionAnswer>([async () => NONE, async () => ACTIVE])
    const streams = calls<StreamsAnswer>([async () => STREAMS])
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
    const streams = calls<StreamsAnswer>([
      async () => ({ success: false, status: 503, detail: "busy" }),
      async () => {
        throw new Error("broken")
      },
      async () => STREAMS
    ])
    const actor = start(calls<SubscriptionAnswer>([async () => ACTIVE]), streams)
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
    const actor = start(calls<SubscriptionAnswer>([async () => ({ success: false, status: 500, detail: "x" }), async () => ACTIVE]))
    expect(selectStatus(await statusSettled(actor))).toBe("failed")
    actor.send({ type: "streams.reload" })
    expect(selectStatus(await reloadSettled(actor))).toBe("active")
  })
})
