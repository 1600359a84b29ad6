import { useSelector } from "@xstate/react"
import { Navigate, Outlet } from "react-router-dom"
import { selectIsAuthenticated, selectIsCheckingSession } from "../../machines/shell/sessionMachine.ts"
import { LoadingView } from "../shared/LoadingView.tsx"
import { useSession } from "../shared/ServicesContext.tsx"

/**
 * Login, register and verify make no sense with a session: those visitors go home. A token kept
 * from an earlier visit is first confirmed by the server, so a link from a mail (verify, an invite)
 * still does its work for someone whose old session has ended.
 */
export const RedirectIfAuthenticated = () => {
  const session = useSession()
  const checking = useSelector(session, selectIsCheckingSession)
  const authenticated = useSelector(session, selectIsAuthenticated)
  if (checking) return <LoadingView />
  return authenticated ? <Navigate to="/" replace /> : <Outlet />
}
