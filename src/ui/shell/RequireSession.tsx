import { useSelector } from "@xstate/react"
import { Navigate, Outlet } from "react-router-dom"
import { selectIsAuthenticated } from "../../machines/shell/sessionMachine.ts"
import { useSession } from "../shared/ServicesContext.tsx"

/** Everything outside the public routes needs a stored session. */
export const RequireSession = () => (useSelector(useSession(), selectIsAuthenticated) ? <Outlet /> : <Navigate to="/login" replace />)
