import type { MaintenanceNotice } from "../../machines/shell/bootMachine.ts"
import * as styles from "../shared/StatusView.css.ts"
import { StatusView } from "../shared/StatusView.tsx"
import { PageTitle } from "./PageTitle.tsx"

/** While the site is in maintenance this notice is the whole app. */
export const MaintenanceView = ({ notice }: { readonly notice: MaintenanceNotice }) => (
  <StatusView title={notice.title} placement="screen" role="status">
    <PageTitle title={notice.title} />
    <p className={styles.message}>{notice.firstRowText}</p>
    <p className={styles.message}>{notice.secondRowText}</p>
  </StatusView>
)
