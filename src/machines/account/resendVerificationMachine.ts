import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, detailOf, isSuccess } from "../../domain/contract/answer.ts"
import { failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"

/** Shown when the server answered without words of its own; it never says whether the address has an account. */
export const VERIFICATION_RESENT_MESSAGE = "If this email address still needs verifying, a new verification link is on its way."
export const RESEND_FAILED_MESSAGE = "The verification email could not be sent."

export type ResendVerificationEvent = { readonly type: "resendVerification.send" }

interface ResendVerificationContext {
  readonly email: string
  /** what the server said once it sent (or would have sent) the mail */
  readonly confirmation: string | null
  /** why the last request did not go through */
  readonly failure: string | null
}

/** "Send the verification email again" for an address the login form found unverified. */
export const resendVerificationMachine = setup({
  types: {
    context: {} as ResendVerificationContext,
    events: {} as ResendVerificationEvent,
    input: {} as { readonly email: string }
  },
  actors: {
    resend: fromPromise<Answer<"resendVerification">, { readonly email: string }>(notProvided("resend"))
  },
  guards: {
    sent: (_, answer: Answer<"resendVerification">) => isSuccess(answer)
  },
  actions: {
    keepConfirmation: assign((_, answer: Answer<"resendVerification">) => ({
      confirmation: detailOf(answer) ?? VERIFICATION_RESENT_MESSAGE,
      failure: null
    })),
    keepFailure: assign((_, answer: Answer<"resendVerification">) => ({
      failure: `${RESEND_FAILED_MESSAGE} ${failureHint(answer)}`
    }))
  }
}).createMachine({
  id: "resendVerification",
  context: ({ input }) => ({ email: input.email, confirmation: null, failure: null }),
  initial: "idle",
  states: {
    idle: { on: { "resendVerification.send": "sending" } },
    sending: {
      tags: ["busy"],
      invoke: {
        src: "resend",
        input: ({ context }) => ({ email: context.email }),
        onDone: [
          { guard: { type: "sent", params: answerOf }, target: "sent", actions: { type: "keepConfirmation", params: answerOf } },
          { target: "failed", actions: { type: "keepFailure", params: answerOf } }
        ]
      }
    },
    failed: { on: { "resendVerification.send": "sending" } },
    // not final: the confirmation stays on the page until the form is sent again
    sent: {}
  }
})

export type ResendVerificationSnapshot = SnapshotFrom<typeof resendVerificationMachine>

export const selectIsResending = (snapshot: ResendVerificationSnapshot): boolean => snapshot.hasTag("busy")
export const selectResendConfirmation = (snapshot: ResendVerificationSnapshot): string | null =>
  snapshot.matches("sent") ? snapshot.context.confirmation : null
export const selectResendFailure = (snapshot: ResendVerificationSnapshot): string | null =>
  snapshot.matches("failed") ? snapshot.context.failure : null
