import { useSelector } from "@xstate/react"
import { Outlet } from "react-router-dom"
import { selectIsLoadingUser, selectIsStaff } from "../../machines/shell/sessionMachine.ts"
import { LoadingView } from "../shared/LoadingView.tsx"
import { useSession } from "../shared/ServicesContext.tsx"
import { NotFoundView } from "./NotFoundView.tsx"

/** Whether the signed-in user may see staff pages; unknown until their details arrive. */
export const useStaffAccess = (): "loading" | "allowed" | "denied" => {
  const session = useSession()
  const loadingUser = useSelector(session, selectIsLoadingUser)
  const isStaff = useSelector(session, selectIsStaff)
  return loadingUser ? "loading" : isStaff ? "allowed" : "denied"
}

/** Staff pages do not exist for everyone else; the server refuses their data anyway. */
export const RequireStaff = () => {
  const access = useStaffAccess()
  if (access === "loading") return <LoadingView placement="inline" />
  return access === "allowed" ? <Outlet /> : <NotFoundView />
}
