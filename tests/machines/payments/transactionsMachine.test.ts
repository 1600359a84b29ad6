import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import { type Answer, answered, refused, SESSION_ENDED, unreachable } from "../../../src/domain/contract/answer.ts"
import { Transaction } from "../../../src/domain/Transaction.ts"
import {
  selectError,
  selectStatus,
  selectTransactions,
  TRANSACTIONS_FAILED_MESSAGE,
  transactionsMachine
} from "../../../src/machines/payments/transactionsMachine.ts"
import { CONNECTION_HINT, RETRY_HINT } from "../../../src/machines/shared/answer.ts"

const NEWEST = new Transaction({
  id: 2,
  paypal_transaction_id: "8MC585209K746392H",
  created_at: "2026-11-21T17:02:11.000Z",
  price: 1234.5,
  currency: "EUR"
})
const OLDEST = new Transaction({ id: 1, paypal_transaction_id: null, created_at: "2026-10-23T08:15:42.000Z", price: 5, currency: "USD" })

const start = (answers: ReadonlyArray<() => Promise<Answer<"payments">>>) => {
  let calls = 0
  const actor = createActor(
    transactionsMachine.provide({
      actors: {
        loadTransactions: fromPromise(() => {
          const answer = answers[Math.min(calls, answers.length - 1)]
          calls += 1
          if (answer === undefined) throw new Error("no answer given")
          return answer()
        })
      }
    })
  ).start()
  return { actor, calls: () => calls }
}

const settled = (actor: ReturnType<typeof start>["actor"]) => waitFor(actor, (snapshot) => selectStatus(snapshot) !== "loading")

describe("transactionsMachine", () => {
  it("loads the viewer's payments, keeping the server's newest-first order", async () => {
    const { actor } = start([async () => answered({ success: true, data: [NEWEST, OLDEST] })])
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    const snapshot = await settled(actor)
    expect(selectStatus(snapshot)).toBe("loaded")
    expect(selectTransactions(snapshot)).toEqual([NEWEST, OLDEST])
    expect(selectError(snapshot)).toBeNull()
  })

  it("is empty when the viewer has paid nothing", async () => {
    const { actor } = start([async () => answered({ success: true, data: [] })])
    const snapshot = await settled(actor)
    expect(selectStatus(snapshot)).toBe("empty")
    expect(selectTransactions(snapshot)).toEqual([])
  })

  it("says why it failed, and loads again on retry", async () => {
    const { actor, calls } = start([
      async () => unreachable("network", "Could not reach the server."),
      async () => refused(500, "Internal server error"),
      async () => unreachable("timeout", "The server took too long to answer."),
      async () => answered({ success: true, data: [OLDEST] })
    ])
    expect(selectError(await settled(actor))).toBe(`${TRANSACTIONS_FAILED_MESSAGE} ${CONNECTION_HINT}`)
    expect(selectStatus(actor.getSnapshot())).toBe("failed")

    actor.send({ type: "transactions.retry" })
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    expect(selectError(await settled(actor))).toBe(`${TRANSACTIONS_FAILED_MESSAGE} ${RETRY_HINT}`)

    actor.send({ type: "transactions.retry" })
    expect(selectError(await settled(actor))).toBe(`${TRANSACTIONS_FAILED_MESSAGE} ${CONNECTION_HINT}`)

    actor.send({ type: "transactions.retry" })
    const snapshot = await settled(actor)
    expect(selectStatus(snapshot)).toBe("loaded")
    expect(selectError(snapshot)).toBeNull()
    expect(calls()).toBe(4)
  })

  it("shows nothing of its own once the session has ended", async () => {
    const { actor } = start([async () => SESSION_ENDED])
    expect(selectStatus(await settled(actor))).toBe("failed")
    expect(selectTransactions(actor.getSnapshot())).toEqual([])
  })

  it("ignores a retry while it is not failed", async () => {
    const { actor, calls } = start([async () => answered({ success: true, data: [OLDEST] })])
    await settled(actor)
    actor.send({ type: "transactions.retry" })
    expect(selectStatus(actor.getSnapshot())).toBe("loaded")
    expect(calls()).toBe(1)
  })
})
