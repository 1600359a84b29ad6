import { useSelector } from "@xstate/react"
import { Outlet } from "react-router-dom"
import { selectIsLoadingUser, selectIsStaff } from "../../machines/shell/sessionMachine.ts"
import { useSession } from "../shared/ServicesContext.tsx"
import { LoadingView } from "../shared/LoadingView.tsx"
import { NotFoundView } from "./NotFoundView.tsx"

/** Staff pages do not exist for everyone else; the server refuses their data anyway. */
export const RequireStaff = () => {
  const session = useSession()
  const loadingUser = useSelector(session, selectIsLoadingUser)
  const isStaff = useSelector(session, selectIsStaff)
  if (loadingUser) return <LoadingView placement="inline" />
  return isStaff ? <Outlet /> : <NotFoundView />
}
