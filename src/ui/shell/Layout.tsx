import { useSelector } from "@xstate/react"
import { Outlet } from "react-router-dom"
import { selectSettings } from "../../machines/shell/bootMachine.ts"
import { useServices } from "../shared/ServicesContext.tsx"
import { AnnouncementView } from "./AnnouncementView.tsx"
import { Footer } from "./Footer.tsx"
import { Header } from "./Header.tsx"
import * as styles from "./Layout.css.ts"
import { NotificationsView } from "./NotificationsView.tsx"

/** The authenticated area: header, the page, footer, notifications and the announcement. */
export const Layout = () => {
  const settings = useSelector(useServices().boot, selectSettings)
  return (
    <div className={styles.shell}>
      <Header siteName={settings.siteName} />
      <main className={styles.main}>
        <Outlet />
      </main>
      <Footer scheduleUrl={settings.scheduleUrl} />
      <NotificationsView />
      <AnnouncementView />
    </div>
  )
}
