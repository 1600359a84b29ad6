import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { CallResult } from "../../domain/api.ts"
import type { Transaction } from "../../domain/Transaction.ts"
import { failureHint, isFailure } from "../shared/apiResult.ts"
import { notProvided } from "../shared/notProvided.ts"

export const TRANSACTIONS_FAILED_MESSAGE = "Your transactions could not be loaded."

export type TransactionsEvent = { readonly type: "transactions.retry" }

export interface TransactionsContext {
  /** newest first, as the server answers them */
  readonly transactions: ReadonlyArray<Transaction>
  readonly error: string | null
}

type PaymentsAnswer = CallResult<"payments"> | undefined

const transactionsOf = (answer: PaymentsAnswer): ReadonlyArray<Transaction> => (!isFailure(answer) && answer.success ? answer.data : [])

/** /transactions: the viewer's payments, or 'No Transactions', or why they could not be loaded and a retry. */
export const transactionsMachine = setup({
  types: {
    context: {} as TransactionsContext,
    events: {} as TransactionsEvent
  },
  actors: {
    loadTransactions: fromPromise<PaymentsAnswer>(notProvided("loadTransactions"))
  },
  guards: {
    gotTransactions: (_, answer: PaymentsAnswer) => !isFailure(answer) && answer.success,
    hasTransactions: (_, answer: PaymentsAnswer) => transactionsOf(answer).length > 0
  },
  actions: {
    keepTransactions: assign((_, answer: PaymentsAnswer) => ({ transactions: transactionsOf(answer), error: null })),
    keepFailure: assign((_, answer: PaymentsAnswer) => ({ error: `${TRANSACTIONS_FAILED_MESSAGE} ${failureHint(answer)}` }))
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
        ],
        onError: { target: "failed", actions: { type: "keepFailure", params: () => undefined } }
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
