import { useSelector } from "@xstate/react"
import { selectIsLoadingUser, selectIsLoggingOutAll, selectUser } from "../../machines/shell/sessionMachine.ts"
import { button } from "../shared/controls.css.ts"
import { LoadingView } from "../shared/LoadingView.tsx"
import { useSession } from "../shared/ServicesContext.tsx"
import { ProfileDetailsForm } from "./ProfileDetailsForm.tsx"
import { ProfilePasswordForm } from "./ProfilePasswordForm.tsx"
import * as styles from "./ProfileView.css.ts"

/** /profile: the two account forms and 'Log out all devices' (SPEC §2). */
export const ProfileView = () => {
  const session = useSession()
  const user = useSelector(session, selectUser)
  const loadingUser = useSelector(session, selectIsLoadingUser)
  const loggingOutAll = useSelector(session, selectIsLoggingOutAll)
  // only the first load: a refresh after a username change keeps the forms (and their focus) in place
  if (user === null && loadingUser) return <LoadingView placement="inline" />
  return (
    <section className={styles.page} aria-labelledby="page-title">
      <div className={styles.header}>
        <h1 id="page-title" className={styles.title}>
          Account settings
        </h1>
        <p className={styles.lead}>Update your email, username or password, or log out all devices.</p>
      </div>
      <div className={styles.forms}>
        {/* a confirmed email change (from the mailed link) starts the form afresh with the new address */}
        <ProfileDetailsForm key={user?.email ?? ""} username={user?.username ?? ""} email={user?.email ?? ""} />
        <ProfilePasswordForm />
      </div>
      <section className={styles.panel} aria-labelledby="devices-heading">
        <h2 id="devices-heading" className={styles.panelHeading}>
          Devices
        </h2>
        <div className={styles.dangerRow}>
          <p className={styles.panelText}>Sign out everywhere your account is signed in, including this browser.</p>
          <button
            type="button"
            className={`${button({ tone: "secondary" })} ${styles.dangerButton}`}
            // aria-disabled, not disabled: the button keeps the focus; the session ignores a second click
            aria-disabled={loggingOutAll || undefined}
            onClick={() => session.send({ type: "session.logoutAll" })}
          >
            {loggingOutAll ? "Logging out…" : "Log out all devices"}
          </button>
        </div>
      </section>
    </section>
  )
}
