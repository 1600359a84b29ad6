import { selectIsLoadingUser, selectIsLoggingOutAll, selectUser } from "../../machines/shell/sessionMachine.ts"
import { button } from "../shared/controls.css.ts"
import { LoadingView } from "../shared/LoadingView.tsx"
import { PageView } from "../shared/PageView.tsx"
import { Panel } from "../shared/Panel.tsx"
import { useSession } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import { ProfileDetailsForm } from "./ProfileDetailsForm.tsx"
import { ProfilePasswordForm } from "./ProfilePasswordForm.tsx"
import * as styles from "./ProfileView.css.ts"

/** /profile: the two account forms and 'Log out all devices' (SPEC §2). */
export const ProfileView = () => {
  const session = useSession()
  const { user, loadingUser, loggingOutAll } = useSelectors(session, {
    user: selectUser,
    loadingUser: selectIsLoadingUser,
    loggingOutAll: selectIsLoggingOutAll
  })
  // only the first load: a refresh after a username change keeps the forms (and their focus) in place
  if (user === null && loadingUser) return <LoadingView placement="inline" />
  return (
    <PageView title="Account settings" lead="Update your email, username or password, or log out all devices." width="wide">
      <div className={styles.forms}>
        {/* a confirmed email change (from the mailed link) starts the form afresh with the new address */}
        <ProfileDetailsForm
          key={user?.email ?? ""}
          username={user?.username ?? ""}
          email={user?.email ?? ""}
          pendingEmail={user?.pendingEmail}
        />
        <ProfilePasswordForm />
      </div>
      <Panel title="Devices" spacing="roomy">
        <div className={styles.dangerRow}>
          <p className={surfaces.muted}>Sign out everywhere your account is signed in, including this browser.</p>
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
      </Panel>
    </PageView>
  )
}
