import { useSelector } from "@xstate/react"
import { Link, Navigate } from "react-router-dom"
import { selectIsAuthenticated, selectIsLoggingOut } from "../../machines/shell/sessionMachine.ts"
import { button } from "../shared/controls.css.ts"
import { useSession } from "../shared/ServicesContext.tsx"
import { StatusView } from "../shared/StatusView.tsx"

/**
 * /logout while the route's loader has the session log out. A refused logout leaves the session
 * as it was (SPEC §4), so the way back is offered; once the session has ended, /login follows.
 */
export const LogoutView = () => {
  const session = useSession()
  const authenticated = useSelector(session, selectIsAuthenticated)
  const loggingOut = useSelector(session, selectIsLoggingOut)
  if (!authenticated) return <Navigate to="/login" replace />
  return (
    <StatusView title="Signing out…" placement="screen" busy={loggingOut} role="status">
      {loggingOut ? null : (
        <Link className={button({ tone: "secondary" })} to="/">
          Back to streams
        </Link>
      )}
    </StatusView>
  )
}
