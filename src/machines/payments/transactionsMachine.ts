import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, dataOf } from "../../domain/contract/answer.ts"
import type { Transaction } from "../../domain/Transaction.ts"
import { failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"

export const TRANSACTIONS_FAILED_MESSAGE = "Your transactions could not be loaded."

export type TransactionsEvent = { readonly type: "transactions.retry" }

export interface TransactionsContext {
  /** newest first, as the server answers them */
  readonly transactions: ReadonlyArray<Transaction>
  readonly error: string | null
}

const gotTransactions = (answer: Answer<"payments">): boolean => answer._tag === "ok" && answer.body.success
const transactionsOf = (answer: Answer<"payments">): ReadonlyArray<Transaction> => dataOf(answer) ?? []

/** /transactions: the viewer's payments, or 'No Transactions', or why they could not be loaded and a retry. */
export const transactionsMachine = setup({
  types: {
    context: {} as TransactionsContext,
    events: {} as TransactionsEvent
  },
  actors: {
    loadTransactions: fromPromise<Answer<"payments">>(notProvided("loadTransactions"))
  },
  guards: {
    gotTransactions: (_, answer: Answer<"payments">) => gotTransactions(answer),
    hasTransactions: (_, answer: Answer<"payments">) => transactionsOf(answer).length > 0
  },
  actions: {
    keepTransactions: assign((_, answer: Answer<"payments">) => ({ transactions: transactionsOf(answer), error: null })),
    keepFailure: assign((_, answer: Answer<"payments">) => ({ error: `${TRANSACTIONS_FAILED_MESSAGE} ${failureHint(answer)}` }))
  }
}).createMachine({
  id: "transactions",
  context: { transactions: [], error: null },
  initial: "loading",
  states: {
    loading: {
      tags: ["loading"],
      invoke: {
        src: "loadTransactions",
        onDone: [
          {
            guard: { type: "hasTransactions", params: ({ event }) => event.output },
            target: "loaded",
            actions: { type: "keepTransactions", params: ({ event }) => event.output }
          },
          {
            guard: { type: "gotTransactions", params: ({ event }) => event.output },
            target: "empty",
            actions: { type: "keepTransactions", params: ({ event }) => event.output }
          },
          { target: "failed", actions: { type: "keepFailure", params: ({ event }) => event.output } }
        ]
      }
    },
    failed: {
      tags: ["failed"],
      on: { "transactions.retry": { target: "loading" } }
    },
    empty: {},
    loaded: {}
  }
})

export type TransactionsSnapshot = SnapshotFrom<typeof transactionsMachine>
export type TransactionsStatus = "loading" | "failed" | "empty" | "loaded"

export const selectStatus = (snapshot: TransactionsSnapshot): TransactionsStatus =>
  snapshot.hasTag("loading") ? "loading" : snapshot.hasTag("failed") ? "failed" : snapshot.matches("empty") ? "empty" : "loaded"
export const selectTransactions = (snapshot: TransactionsSnapshot): ReadonlyArray<Transaction> => snapshot.context.transactions
export const selectError = (snapshot: TransactionsSnapshot): string | null => snapshot.context.error
