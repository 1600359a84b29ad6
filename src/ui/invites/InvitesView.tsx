import { formatPrice } from "../../domain/Invitation.ts"
import {
  invitesMachine,
  selectCanShare,
  selectCompleted,
  selectError,
  selectInviteLink,
  selectIsBusy,
  selectRedemption,
  selectRegistered,
  selectRewards,
  selectStatus
} from "../../machines/invites/invitesMachine.ts"
import { button, textInput, visuallyHidden } from "../shared/controls.css.ts"
import { Icon } from "../shared/Icon.tsx"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { PageView } from "../shared/PageView.tsx"
import { Panel } from "../shared/Panel.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import { InvitationTable } from "./InvitationTable.tsx"
import * as styles from "./InvitesView.css.ts"
import { RedemptionPanel } from "./RedemptionPanel.tsx"

/** /invites (SPEC §2): reward points, the invite link, what points would take off a month, and the invitations. */
export const InvitesView = () => {
  const invites = usePageActor(invitesMachine)
  const { status, error, link, canShare, busy, rewards, redemption, registered, completed } = useSelectors(invites, {
    status: selectStatus,
    error: selectError,
    link: selectInviteLink,
    canShare: selectCanShare,
    busy: selectIsBusy,
    rewards: selectRewards,
    redemption: selectRedemption,
    registered: selectRegistered,
    completed: selectCompleted
  })

  return (
    <PageView title="Invites" lead="Invite friends and earn a reward point for each one who joins and verifies their email.">
      {status === "loading" ? (
        <LoadingPlaceholder label="Loading your invitations…" count={2} height="120px" />
      ) : status === "failed" ? (
        <RetryNotice message={error} onRetry={() => invites.send({ type: "invites.retry" })} />
      ) : (
        <>
          <dl className={styles.stats}>
            <div className={surfaces.stat}>
              <dt className={surfaces.statLabel}>Reward points</dt>
              <dd className={surfaces.statValue}>{rewards.points}</dd>
            </div>
            <div className={surfaces.stat}>
              <dt className={surfaces.statLabel}>Price per reward point</dt>
              <dd className={surfaces.statValue}>{formatPrice(rewards.pricePerPoint)}</dd>
            </div>
          </dl>

          <Panel title="Your invite link">
            <p id="link-hint" className={surfaces.muted}>
              Send it to friends. Whoever creates an account through it shows up below, and you earn a point once they verify their email.
            </p>
            <div className={styles.linkRow}>
              <label className={visuallyHidden} htmlFor="invite-link">
                Invite link
              </label>
              <input
                id="invite-link"
                className={`${textInput} ${styles.linkInput}`}
                value={link}
                readOnly
                aria-describedby="link-hint"
                onFocus={(event) => event.target.select()}
              />
              {/* aria-disabled, not disabled: the pressed button keeps the focus while the link is copied or shared */}
              <div className={styles.linkActions}>
                <button
                  type="button"
                  className={button({ tone: "primary" })}
                  aria-disabled={busy || undefined}
                  onClick={() => invites.send({ type: "link.copy" })}
                >
                  <Icon name="copy" size={18} /> Copy link
                </button>
                {canShare ? (
                  <button
                    type="button"
                    className={button({ tone: "secondary" })}
                    aria-disabled={busy || undefined}
                    onClick={() => invites.send({ type: "link.share" })}
                  >
                    <Icon name="share" size={18} /> Share
                  </button>
                ) : null}
              </div>
            </div>
          </Panel>

          <RedemptionPanel {...redemption} onChoose={(points) => invites.send({ type: "redeem.choose", points })} />

          <InvitationTable
            caption="Registered"
            invitations={registered}
            completed={false}
            empty="Nobody is waiting to verify their email. People who register through your link appear here until they do."
          />
          <InvitationTable
            caption="Completed"
            invitations={completed}
            completed
            empty="No completed invitations yet. Each person who verifies their email earns you a point."
          />
        </>
      )}
    </PageView>
  )
}
