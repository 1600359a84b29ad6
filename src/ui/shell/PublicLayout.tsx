import { useSelector } from "@xstate/react"
import { Link, Outlet } from "react-router-dom"
import { selectSettings } from "../../machines/shell/bootMachine.ts"
import { Icon } from "../shared/Icon.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as styles from "./PublicLayout.css.ts"
import { mainTarget } from "./SkipLink.css.ts"
import { MAIN_ID, SkipLink } from "./SkipLink.tsx"

/** The frame of the pages a visitor sees without a session. */
export const PublicLayout = () => {
  const { siteName } = useSelector(useServices().boot, selectSettings)
  return (
    <div className={styles.page}>
      <SkipLink />
      {/* the banner landmark, so the brand is not content outside every landmark */}
      <header>
        <Link to="/login" className={styles.brand}>
          <Icon name="tv" className={styles.brandMark} size={26} />
          {siteName}
        </Link>
      </header>
      <main id={MAIN_ID} tabIndex={-1} className={`${styles.card} ${mainTarget}`}>
        <Outlet />
      </main>
    </div>
  )
}
