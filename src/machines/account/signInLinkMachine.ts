import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { type Answer, detailOf } from "../../domain/contract/answer.ts"
import { failureHint, isAccepted, isTransientFailure } from "../shared/answer.ts"
import { MISSING_TOKEN_MESSAGE } from "../shared/mailedLink.ts"
import { notProvided } from "../shared/notProvided.ts"
import { stepOf } from "../shared/stepOf.ts"

export const SIGN_IN_LINK_FAILED_MESSAGE = "This sign-in link could not be used. Sign in with your email and password."
export const SIGN_IN_LINK_UNREACHABLE_MESSAGE = "You could not be signed in just now."

export type SignInLinkEvent = { readonly type: "signInLink.retry" }

/** The session token of an accepted link; an answer without one signs nobody in. */
const sessionTokenOf = (answer: Answer<"signInWithLink">): string | null =>
  isAccepted(answer) && answer._tag === "ok" && answer.body.token !== undefined && answer.body.token !== "" ? answer.body.token : null

/**
 * /sign-in-link: the link mailed when a right password came from a new network while strangers had
 * spent the account's wrong-password budget. Its token is sent once; an accepted one hands the
 * session token to the session, and the page then goes where a sign-in goes.
 */
export const signInLinkMachine = setup({
  types: {
    context: {} as { readonly token: string; readonly detail: string | null },
    events: {} as SignInLinkEvent,
    input: {} as { readonly token: string }
  },
  actors: {
    signIn: fromPromise<Answer<"signInWithLink">, { readonly token: string }>(notProvided("signIn"))
  },
  guards: {
    hasToken: ({ context }) => context.token !== "",
    accepted: (_, answer: Answer<"signInWithLink">) => sessionTokenOf(answer) !== null,
    transient: (_, answer: Answer<"signInWithLink">) => isTransientFailure(answer)
  },
  actions: {
    /** The session takes the new token (src/app sends it `login.succeeded` through boot). */
    signedIn: (_, _params: { readonly token: string }) => {},
    keepDetail: assign((_, params: { readonly detail: string | null }) => ({ detail: params.detail }))
  }
}).createMachine({
  id: "signInLink",
  context: ({ input }) => ({ token: input.token.trim(), detail: null }),
  initial: "start",
  states: {
    start: {
      always: [
        { guard: "hasToken", target: "signingIn" },
        { target: "invalid", actions: { type: "keepDetail", params: { detail: MISSING_TOKEN_MESSAGE } } }
      ]
    },
    signingIn: {
      tags: ["busy"],
      invoke: {
        src: "signIn",
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: "accepted", params: ({ event }) => event.output },
            target: "signedIn",
            actions: { type: "signedIn", params: ({ event }) => ({ token: sessionTokenOf(event.output) ?? "" }) }
          },
          {
            guard: { type: "transient", params: ({ event }) => event.output },
            target: "unreachable",
            actions: {
              type: "keepDetail",
              params: ({ event }) => ({ detail: `${SIGN_IN_LINK_UNREACHABLE_MESSAGE} ${failureHint(event.output)}` })
            }
          },
          {
            target: "invalid",
            actions: { type: "keepDetail", params: ({ event }) => ({ detail: detailOf(event.output) ?? SIGN_IN_LINK_FAILED_MESSAGE }) }
          }
        ]
      }
    },
    // the server did not say whether the link is good, so the page offers to send it again
    unreachable: { on: { "signInLink.retry": { target: "signingIn" } } },
    signedIn: { type: "final" },
    invalid: { type: "final" }
  }
})

export type SignInLinkSnapshot = SnapshotFrom<typeof signInLinkMachine>
export type SignInLinkStep = "signingIn" | "signedIn" | "invalid" | "unreachable"

export const selectSignInLinkStep = (snapshot: SignInLinkSnapshot): SignInLinkStep =>
  stepOf(snapshot, ["signedIn", "invalid", "unreachable"], "signingIn")
export const selectSignInLinkDetail = (snapshot: SignInLinkSnapshot): string | null => snapshot.context.detail
