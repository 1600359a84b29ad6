import type { ReactNode } from "react"
import { selectBootError, selectIsBooting, selectMaintenanceNotice } from "../../machines/shell/bootMachine.ts"
import { LoadingView } from "../shared/LoadingView.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import { BootErrorView } from "./BootErrorView.tsx"
import { MaintenanceView } from "./MaintenanceView.tsx"
import "../shared/theme.css.ts"

/** Maintenance mode replaces the whole app; nothing routes until the check has passed. */
export const BootGate = ({ children }: { readonly children: ReactNode }) => {
  const { boot } = useServices()
  const { notice, error, booting } = useSelectors(boot, {
    notice: selectMaintenanceNotice,
    error: selectBootError,
    booting: selectIsBooting
  })
  if (notice !== null) return <MaintenanceView notice={notice} />
  if (error !== null) return <BootErrorView message={error} onRetry={() => boot.send({ type: "boot.retry" })} />
  if (booting) return <LoadingView />
  return children
}
