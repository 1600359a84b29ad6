import { useEffect, useRef } from "react"
import { selectIsConfirmingLogoutAll, selectIsLoadingUser, selectIsLoggingOutAll, selectUser } from "../../machines/shell/sessionMachine.ts"
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
  const { user, loadingUser, loggingOutAll, confirming } = useSelectors(session, {
    user: selectUser,
    loadingUser: selectIsLoadingUser,
    loggingOutAll: selectIsLoggingOutAll,
    confirming: selectIsConfirmingLogoutAll
  })
  const logOutAll = useRef<HTMLButtonElement>(null)
  const wasConfirming = useRef(false)
  // taken back: the focus returns from Cancel (gone now) to the button it came from
  useEffect(() => {
    if (wasConfirming.current && !confirming && !loggingOutAll) logOutAll.current?.focus()
    wasConfirming.current = confirming
  }, [confirming, loggingOutAll])
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
          <p id="log-out-all-note" className={surfaces.muted}>
            {confirming
              ? "Every device signed in to your account, this browser included, will have to sign in again. Press again to confirm."
              : "Sign out everywhere your account is signed in, including this browser."}
          </p>
          <div className={styles.dangerActions}>
            <button
              ref={logOutAll}
              type="button"
              className={`${button({ tone: "secondary" })} ${styles.dangerButton}`}
              aria-describedby="log-out-all-note"
              // aria-disabled, not disabled: the button keeps the focus; the session ignores a second click
              aria-disabled={loggingOutAll || undefined}
              onClick={() => session.send({ type: confirming ? "session.logoutAll" : "session.askLogoutAll" })}
              onKeyDown={(event) => {
                if (event.key === "Escape" && confirming) session.send({ type: "session.cancelLogoutAll" })
              }}
            >
              {loggingOutAll ? "Logging out…" : confirming ? "Confirm: log out all devices" : "Log out all devices"}
            </button>
            {confirming && (
              <button
                type="button"
                className={button({ tone: "secondary" })}
                onClick={() => session.send({ type: "session.cancelLogoutAll" })}
              >
                Cancel
              </button>
            )}
          </div>
        </div>
      </Panel>
    </PageView>
  )
}
