import { useSelector } from "@xstate/react"
import { Outlet } from "react-router-dom"
import { selectSettings } from "../../machines/shell/bootMachine.ts"
import { useServices } from "../shared/ServicesContext.tsx"
import { AnnouncementView } from "./AnnouncementView.tsx"
import { Footer } from "./Footer.tsx"
import { Header } from "./Header.tsx"
import * as styles from "./Layout.css.ts"
import { NotificationsView } from "./NotificationsView.tsx"
import { mainTarget } from "./SkipLink.css.ts"
import { MAIN_ID, SkipLink } from "./SkipLink.tsx"

/** The authenticated area: header, the page, footer, notifications and the announcement. */
export const Layout = () => {
  const settings = useSelector(useServices().boot, selectSettings)
  return (
    <div className={styles.shell}>
      <SkipLink />
      <Header siteName={settings.siteName} />
      <main id={MAIN_ID} tabIndex={-1} className={`${styles.main} ${mainTarget}`}>
        <Outlet />
      </main>
      <Footer scheduleUrl={settings.scheduleUrl} />
      <NotificationsView />
      <AnnouncementView />
    </div>
  )
}
