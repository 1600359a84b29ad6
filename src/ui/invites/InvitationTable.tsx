import { formatDate } from "../../domain/Dates.ts"
import type { Invitation } from "../../domain/Invitation.ts"
import { type Column, DataTable } from "../shared/DataTable.tsx"
import { EmailAddress } from "../shared/EmailAddress.tsx"

const day = (iso: string) => <time dateTime={iso}>{formatDate(iso)}</time>

const REGISTERED: ReadonlyArray<Column<Invitation>> = [
  { header: "Email", cell: (invitation) => <EmailAddress address={invitation.newUserEmail} />, wide: true },
  { header: "Registered", cell: (invitation) => day(invitation.createdAt), kind: "nowrap" }
]

const COMPLETED: ReadonlyArray<Column<Invitation>> = [
  ...REGISTERED,
  { header: "Completed", cell: (invitation) => (invitation.rewardGiven === null ? null : day(invitation.rewardGiven)), kind: "nowrap" }
]

interface InvitationTableProps {
  readonly caption: string
  readonly invitations: ReadonlyArray<Invitation>
  /** the completed table adds the day the reward was given */
  readonly completed: boolean
  readonly empty: string
}

/** SPEC §2's registered and completed tables; dates in en-GB. */
export const InvitationTable = ({ caption, invitations, completed, empty }: InvitationTableProps) => (
  <DataTable
    caption={caption}
    columns={completed ? COMPLETED : REGISTERED}
    rows={invitations}
    rowKey={(invitation) => `${invitation.newUserEmail} ${invitation.createdAt}`}
    empty={empty}
  />
)
