import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import type { Answer, AnyAnswer } from "../../domain/contract/answer.ts"
import {
  COPIED_MESSAGE,
  COPY_FAILED_MESSAGE,
  type Invitation,
  isCompleted,
  priceAfterDiscount,
  rewardOptions
} from "../../domain/Invitation.ts"
import { ResultCode } from "../../domain/ResultCode.ts"
import { failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"
import type { NotificationContent } from "../shell/notificationsMachine.ts"

export const INVITES_FAILED_MESSAGE = "Your invitations could not be loaded."
export const SHARE_FAILED_MESSAGE = "The link could not be shared. Copy it instead."
export const SHARE_TITLE = "Join me on StreamHub"
export const SHARE_TEXT = "Watch live sports with me. Create your account with my invite link:"

/** What the page loads at once: the invitations, the reward points, the plans' prices, and what the browser offers. */
export interface InvitesAnswers {
  readonly invitations: Answer<"invitations">
  readonly rewards: Answer<"rewardPoints">
  readonly plans: Answer<"subscriptionPlans">
  /** whether the browser can hand a link to the device's share sheet */
  readonly canShare: boolean
}

export interface ShareRequest {
  readonly title: string
  readonly text: string
  readonly url: string
}

export type InvitesEvent =
  | { readonly type: "invites.retry" }
  | { readonly type: "link.copy" }
  | { readonly type: "link.share" }
  | { readonly type: "redeem.choose"; readonly points: number }

export interface InvitesContext {
  readonly canShare: boolean
  readonly inviteLink: string
  /** newest first, as the server answers them */
  readonly invitations: ReadonlyArray<Invitation>
  readonly points: number
  readonly pricePerPoint: number
  /** the monthly price after the one-month plan's discount */
  readonly monthlyPrice: number
  /** the full monthly price, before any discount */
  readonly listPrice: number
  /** how many points the selector is set to */
  readonly redeem: number
  readonly error: string | null
}

const COPIED: NotificationContent = { tone: "success", title: COPIED_MESSAGE, message: "" }
const COPY_FAILED: NotificationContent = { tone: "error", title: COPY_FAILED_MESSAGE, message: "" }
const SHARE_FAILED: NotificationContent = { tone: "error", title: SHARE_FAILED_MESSAGE, message: "" }

/** What the page shows once all three calls answered with what it needs; otherwise the first answer that did not, for the reason to show. */
const readAnswers = ({
  invitations,
  rewards,
  plans,
  canShare
}: InvitesAnswers): { readonly loaded: Partial<InvitesContext> } | { readonly failure: AnyAnswer } => {
  if (invitations._tag !== "ok" || !invitations.body.success) return { failure: invitations }
  if (rewards._tag !== "ok" || !rewards.body.success) return { failure: rewards }
  if (plans._tag !== "ok" || plans.body.resultCode !== ResultCode.SUCCESS) return { failure: plans }
  const { subscriptionPrice, discountRates } = plans.body
  return {
    loaded: {
      canShare,
      inviteLink: invitations.body.inviteLink,
      invitations: invitations.body.data,
      points: rewards.body.rewardPoints,
      pricePerPoint: rewards.body.pricePerRewardPoint,
      listPrice: subscriptionPrice,
      monthlyPrice: priceAfterDiscount(subscriptionPrice, discountRates[0] ?? 0),
      redeem: 0,
      error: null
    }
  }
}

/** /invites: reward points and their value, the invite link to copy or share, the invitations it brought, and what points would take off a month. */
export const invitesMachine = setup({
  types: {
    context: {} as InvitesContext,
    events: {} as InvitesEvent
  },
  actors: {
    loadInvites: fromPromise<InvitesAnswers>(notProvided("loadInvites")),
    copyText: fromPromise<void, { readonly text: string }>(notProvided("copyText")),
    shareLink: fromPromise<"shared" | "dismissed", ShareRequest>(notProvided("shareLink"))
  },
  guards: {
    loadedAll: (_, answers: InvitesAnswers) => "loaded" in readAnswers(answers),
    canShare: ({ context }) => context.canShare,
    isOption: ({ context }, points: number) => selectableOptions(context).includes(points)
  },
  actions: {
    notify: (_, _content: NotificationContent) => {},
    keepAnswers: assign((_, answers: InvitesAnswers) => {
      const read = readAnswers(answers)
      return "loaded" in read ? read.loaded : {}
    }),
    keepFailure: assign((_, answers: InvitesAnswers) => {
      const read = readAnswers(answers)
      return "failure" in read ? { error: `${INVITES_FAILED_MESSAGE} ${failureHint(read.failure)}` } : {}
    }),
    keepRedeem: assign((_, points: number) => ({ redeem: points }))
  }
}).createMachine({
  id: "invites",
  context: {
    canShare: false,
    inviteLink: "",
    invitations: [],
    points: 0,
    pricePerPoint: 0,
    monthlyPrice: 0,
    listPrice: 0,
    redeem: 0,
    error: null
  },
  initial: "loading",
  states: {
    loading: {
      tags: ["loading"],
      invoke: {
        src: "loadInvites",
        onDone: [
          { guard: { type: "loadedAll", params: answerOf }, target: "loaded", actions: { type: "keepAnswers", params: answerOf } },
          { target: "failed", actions: { type: "keepFailure", params: answerOf } }
        ]
      }
    },
    failed: {
      tags: ["failed"],
      on: { "invites.retry": { target: "loading" } }
    },
    loaded: {
      initial: "idle",
      on: {
        "redeem.choose": {
          guard: { type: "isOption", params: ({ event }) => event.points },
          actions: { type: "keepRedeem", params: ({ event }) => event.points }
        }
      },
      states: {
        idle: {
          on: {
            "link.copy": { target: "copying" },
            "link.share": { guard: "canShare", target: "sharing" }
          }
        },
        copying: {
          tags: ["busy"],
          invoke: {
            src: "copyText",
            input: ({ context }) => ({ text: context.inviteLink }),
            onDone: { target: "idle", actions: { type: "notify", params: COPIED } },
            onError: { target: "idle", actions: { type: "notify", params: COPY_FAILED } }
          }
        },
        sharing: {
          tags: ["busy"],
          invoke: {
            src: "shareLink",
            input: ({ context }) => ({ title: SHARE_TITLE, text: SHARE_TEXT, url: context.inviteLink }),
            onDone: { target: "idle" },
            onError: { target: "idle", actions: { type: "notify", params: SHARE_FAILED } }
          }
        }
      }
    }
  }
})

export type InvitesSnapshot = SnapshotFrom<typeof invitesMachine>

function selectableOptions(context: InvitesContext): ReadonlyArray<number> {
  return rewardOptions(context.points, context.pricePerPoint, context.monthlyPrice)
}

export type InvitesStatus = "loading" | "failed" | "loaded"

export const selectStatus = (snapshot: InvitesSnapshot): InvitesStatus =>
  snapshot.hasTag("loading") ? "loading" : snapshot.hasTag("failed") ? "failed" : "loaded"
export const selectError = (snapshot: InvitesSnapshot): string | null => snapshot.context.error
export const selectInviteLink = (snapshot: InvitesSnapshot): string => snapshot.context.inviteLink
export const selectCanShare = (snapshot: InvitesSnapshot): boolean => snapshot.context.canShare
export const selectIsBusy = (snapshot: InvitesSnapshot): boolean => snapshot.hasTag("busy")
export const selectRewards = (snapshot: InvitesSnapshot) => ({
  points: snapshot.context.points,
  pricePerPoint: snapshot.context.pricePerPoint
})
/** Registered: signed up through the link, not yet verified (SPEC §4). */
export const selectRegistered = (snapshot: InvitesSnapshot): ReadonlyArray<Invitation> =>
  snapshot.context.invitations.filter((invitation) => !isCompleted(invitation))
/** Completed: verified, the reward given (SPEC §4). */
export const selectCompleted = (snapshot: InvitesSnapshot): ReadonlyArray<Invitation> => snapshot.context.invitations.filter(isCompleted)
export const selectRedemption = (snapshot: InvitesSnapshot) => ({
  options: selectableOptions(snapshot.context),
  chosen: snapshot.context.redeem,
  pricePerPoint: snapshot.context.pricePerPoint,
  monthlyPrice: snapshot.context.monthlyPrice,
  listPrice: snapshot.context.listPrice
})
