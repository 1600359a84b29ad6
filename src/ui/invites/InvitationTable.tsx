import { formatDate } from "../../domain/Dates.ts"
import type { Invitation } from "../../domain/Invitation.ts"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./InvitesView.css.ts"

interface InvitationTableProps {
  readonly caption: string
  readonly invitations: ReadonlyArray<Invitation>
  /** the completed table adds the day the reward was given */
  readonly completed: boolean
  readonly empty: string
}

/** An address that, short of room, breaks before its @ rather than anywhere. */
const Email = ({ address }: { readonly address: string }) => {
  const at = address.lastIndexOf("@")
  return at <= 0 ? (
    address
  ) : (
    <>
      {address.slice(0, at)}
      <wbr />
      {address.slice(at)}
    </>
  )
}

/** SPEC §2's registered and completed tables; dates in en-GB. */
export const InvitationTable = ({ caption, invitations, completed, empty }: InvitationTableProps) => (
  <section className={surfaces.panel()} aria-label={caption}>
    {invitations.length === 0 ? (
      <>
        <h2 className={surfaces.panelTitle}>{caption}</h2>
        <p className={styles.empty}>{empty}</p>
      </>
    ) : (
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className={styles.caption}>{caption}</caption>
          <thead>
            <tr>
              <th scope="col" className={styles.headCell}>
                Email
              </th>
              <th scope="col" className={styles.headCell}>
                Registered
              </th>
              {completed ? (
                <th scope="col" className={styles.headCell}>
                  Completed
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {invitations.map((invitation) => (
              <tr key={`${invitation.newUserEmail} ${invitation.createdAt}`}>
                <td className={styles.cell}>
                  <Email address={invitation.newUserEmail} />
                </td>
                <td className={styles.dateCell}>
                  <time dateTime={invitation.createdAt}>{formatDate(invitation.createdAt)}</time>
                </td>
                {completed ? (
                  <td className={styles.dateCell}>
                    <time dateTime={invitation.rewardGiven ?? ""}>{formatDate(invitation.rewardGiven ?? "")}</time>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    )}
  </section>
)
