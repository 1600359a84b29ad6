import type { MaintenanceNotice } from "../../machines/bootMachine.ts"
import { StatusView } from "./StatusView.tsx"
import * as styles from "./StatusView.css.ts"

/** While the site is in maintenance this notice is the whole app. */
export const MaintenanceView = ({ notice }: { readonly notice: MaintenanceNotice }) => (
  <StatusView title={notice.title} placement="screen" role="status">
    <p className={styles.message}>{notice.firstRowText}</p>
    <p className={styles.message}>{notice.secondRowText}</p>
  </StatusView>
)
