import { fromPromise } from "xstate"
import { writeClipboardText } from "../adapters/clipboard/clipboard.ts"
import { canShareLinks, shareLink } from "../adapters/clipboard/webShare.ts"
import { invitesMachine } from "../machines/invites/invitesMachine.ts"
import type { FeatureWiring } from "./featureWiring.ts"
import { notifyVia } from "./notifyVia.ts"

/** The invites page, wired to its three calls, the clipboard, the share sheet and the notifications. */
export const createInvites = ({ callApi, notifications }: FeatureWiring) => ({
  invites: invitesMachine.provide({
    actors: {
      loadInvites: fromPromise(async ({ signal }) => {
        const [invitations, rewards, plans] = await Promise.all([
          callApi("invitations", { signal }),
          callApi("rewardPoints", { signal }),
          callApi("subscriptionPlans", { signal })
        ])
        return { invitations, rewards, plans, canShare: canShareLinks() }
      }),
      copyText: fromPromise(({ input }) => writeClipboardText(input.text)),
      shareLink: fromPromise(({ input }) => shareLink(input))
    },
    actions: {
      notify: notifyVia(notifications)
    }
  })
})
