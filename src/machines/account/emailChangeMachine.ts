import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { isAccepted } from "../shared/answer.ts"
import { MISSING_TOKEN_MESSAGE } from "../shared/mailedLink.ts"
import { notProvided } from "../shared/notProvided.ts"
import { stepOf } from "../shared/stepOf.ts"

export const EMAIL_CHANGE_FAILED_MESSAGE = "Your new email address could not be confirmed. Please try again."

interface EmailChangeContext {
  readonly token: string
  /** The address to sign in with from now on. */
  readonly email: string | null
  readonly detail: string | null
}

const confirmedEmail = (answer: Answer<"confirmEmailChange">): string | null => (answer._tag === "ok" ? (answer.body.email ?? null) : null)

/** /confirm-email-change: token check, then success or failure (SPEC §2). */
export const emailChangeMachine = setup({
  types: {
    context: {} as EmailChangeContext,
    input: {} as { readonly token: string }
  },
  actors: {
    confirm: fromPromise<Answer<"confirmEmailChange">, { readonly token: string }>(notProvided("confirm"))
  },
  guards: {
    hasToken: ({ context }) => context.token !== "",
    confirmed: (_, answer: Answer<"confirmEmailChange">) => isAccepted(answer) && confirmedEmail(answer) !== null
  },
  actions: {
    /** A signed-in tab shows the old address until the user info is read again. */
    emailChanged: () => {},
    keepEmail: assign((_, answer: Answer<"confirmEmailChange">) => ({ email: confirmedEmail(answer) })),
    fail: assign((_, params: { readonly detail: string }) => ({ detail: params.detail }))
  }
}).createMachine({
  id: "emailChange",
  context: ({ input }) => ({ token: input.token.trim(), email: null, detail: null }),
  initial: "start",
  states: {
    start: {
      always: [
        { guard: "hasToken", target: "confirming" },
        { target: "failure", actions: { type: "fail", params: { detail: MISSING_TOKEN_MESSAGE } } }
      ]
    },
    confirming: {
      tags: ["busy"],
      invoke: {
        src: "confirm",
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: "confirmed", params: ({ event }) => event.output },
            target: "success",
            actions: [{ type: "keepEmail", params: ({ event }) => event.output }, "emailChanged"]
          },
          {
            target: "failure",
            actions: { type: "fail", params: ({ event }) => ({ detail: detailOf(event.output) ?? EMAIL_CHANGE_FAILED_MESSAGE }) }
          }
        ]
      }
    },
    success: { type: "final" },
    failure: { type: "final" }
  }
})

export type EmailChangeSnapshot = SnapshotFrom<typeof emailChangeMachine>
export type EmailChangeStep = "confirming" | "success" | "failure"

export const selectEmailChangeStep = (snapshot: EmailChangeSnapshot): EmailChangeStep =>
  stepOf(snapshot, ["success", "failure"], "confirming")
export const selectConfirmedEmail = (snapshot: EmailChangeSnapshot): string | null => snapshot.context.email
export const selectEmailChangeDetail = (snapshot: EmailChangeSnapshot): string | null => snapshot.context.detail
