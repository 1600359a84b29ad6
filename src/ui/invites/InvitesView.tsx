import { PageView } from "../shared/PageView.tsx"

/** /invites (SPEC §2): reward points, the invite link and the invitations it brought. */
export const InvitesView = () => <PageView title="Invites" lead="Invite friends and earn a reward point for each one who joins." />
