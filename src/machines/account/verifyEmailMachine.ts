import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { failureHint, isAccepted, isTransientFailure } from "../shared/answer.ts"
import { MISSING_TOKEN_MESSAGE } from "../shared/mailedLink.ts"
import { notProvided } from "../shared/notProvided.ts"
import { stepOf } from "../shared/stepOf.ts"

export const VERIFY_FAILED_MESSAGE = "This verification link could not be used."
export const VERIFY_UNREACHABLE_MESSAGE = "Your email could not be verified just now."

/** /verify: the mailed token is sent once; the page then says verified or invalid. */
export const verifyEmailMachine = setup({
  types: {
    context: {} as { readonly token: string; readonly detail: string | null },
    events: {} as { readonly type: "verify.retry" },
    input: {} as { readonly token: string }
  },
  actors: {
    verify: fromPromise<Answer<"verifyEmail">, { readonly token: string }>(notProvided("verify"))
  },
  guards: {
    hasToken: ({ context }) => context.token !== "",
    accepted: (_, answer: Answer<"verifyEmail">) => isAccepted(answer),
    transient: (_, answer: Answer<"verifyEmail">) => isTransientFailure(answer)
  },
  actions: {
    keepDetail: assign((_, params: { readonly detail: string | null }) => ({ detail: params.detail }))
  }
}).createMachine({
  id: "verifyEmail",
  context: ({ input }) => ({ token: input.token.trim(), detail: null }),
  initial: "start",
  states: {
    start: {
      always: [
        { guard: "hasToken", target: "verifying" },
        { target: "invalid", actions: { type: "keepDetail", params: { detail: MISSING_TOKEN_MESSAGE } } }
      ]
    },
    verifying: {
      tags: ["busy"],
      invoke: {
        src: "verify",
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: "accepted", params: ({ event }) => event.output },
            target: "verified",
            actions: { type: "keepDetail", params: ({ event }) => ({ detail: detailOf(event.output) ?? null }) }
          },
          {
            guard: { type: "transient", params: ({ event }) => event.output },
            target: "unreachable",
            actions: {
              type: "keepDetail",
              params: ({ event }) => ({ detail: `${VERIFY_UNREACHABLE_MESSAGE} ${failureHint(event.output)}` })
            }
          },
          {
            target: "invalid",
            actions: { type: "keepDetail", params: ({ event }) => ({ detail: detailOf(event.output) ?? VERIFY_FAILED_MESSAGE }) }
          }
        ]
      }
    },
    // the token is not known to be bad: the server did not say, so the page offers to ask again
    unreachable: { on: { "verify.retry": { target: "verifying" } } },
    verified: { type: "final" },
    invalid: { type: "final" }
  }
})

export type VerifyEmailSnapshot = SnapshotFrom<typeof verifyEmailMachine>
export type VerifyEmailStep = "verifying" | "verified" | "invalid" | "unreachable"

export const selectVerifyStep = (snapshot: VerifyEmailSnapshot): VerifyEmailStep =>
  stepOf(snapshot, ["verified", "invalid", "unreachable"], "verifying")
export const selectVerifyDetail = (snapshot: VerifyEmailSnapshot): string | null => snapshot.context.detail
