import { useSelector } from "@xstate/react"
import { Navigate, Outlet } from "react-router-dom"
import { selectIsAuthenticated } from "../../machines/shell/sessionMachine.ts"
import { useSession } from "../shared/ServicesContext.tsx"

/** Login, register and verify make no sense with a session: those visitors go home. */
export const RedirectIfAuthenticated = () =>
  useSelector(useSession(), selectIsAuthenticated) ? <Navigate to="/" replace /> : <Outlet />
