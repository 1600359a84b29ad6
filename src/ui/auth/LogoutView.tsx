import { useSelector } from "@xstate/react"
import { useEffect } from "react"
import { Link, Navigate } from "react-router-dom"
import { selectIsAuthenticated, selectIsLoggingOut } from "../../machines/sessionMachine.ts"
import { button } from "../controls.css.ts"
import { useSession } from "../ServicesContext.tsx"
import { StatusView } from "../status/StatusView.tsx"

/** Opening /logout logs out; the session decides where to go once the server has answered. */
export const LogoutView = () => {
  const session = useSession()
  const authenticated = useSelector(session, selectIsAuthenticated)
  const loggingOut = useSelector(session, selectIsLoggingOut)
  useEffect(() => {
    session.send({ type: "session.logout" })
  }, [session])
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
