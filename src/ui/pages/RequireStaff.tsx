import { useSelector } from "@xstate/react"
import { Outlet } from "react-router-dom"
import { selectIsLoadingUser, selectIsStaff } from "../../machines/sessionMachine.ts"
import { useSession } from "../ServicesContext.tsx"
import { LoadingView } from "../status/LoadingView.tsx"
import { NotFoundView } from "../status/NotFoundView.tsx"

/** Staff pages do not exist for everyone else; the server refuses their data anyway. */
export const RequireStaff = () => {
  const session = useSession()
  const loadingUser = useSelector(session, selectIsLoadingUser)
  const isStaff = useSelector(session, selectIsStaff)
  if (loadingUser) return <LoadingView placement="inline" />
  return isStaff ? <Outlet /> : <NotFoundView />
}
