import type { MaintenanceNotice } from "../../machines/shell/bootMachine.ts"
import { StatusView } from "../shared/StatusView.tsx"
import { muted } from "../shared/surfaces.css.ts"
import { PageTitle } from "./PageTitle.tsx"

/** While the site is in maintenance this notice is the whole app. */
export const MaintenanceView = ({ notice }: { readonly notice: MaintenanceNotice }) => (
  <StatusView title={notice.title} placement="screen" role="status">
    <PageTitle title={notice.title} />
    <p className={muted}>{notice.firstRowText}</p>
    <p className={muted}>{notice.secondRowText}</p>
  </StatusView>
)
