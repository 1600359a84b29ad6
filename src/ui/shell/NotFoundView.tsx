import { Link } from "react-router-dom"
import { button } from "../shared/controls.css.ts"
import { StatusView } from "../shared/StatusView.tsx"
import * as styles from "../shared/StatusView.css.ts"

export const NotFoundView = ({ placement = "inline" }: { readonly placement?: "screen" | "inline" }) => (
  <StatusView title="Page not found" placement={placement}>
    <p className={styles.message}>The page you are looking for does not exist or has moved.</p>
    <Link className={button({ tone: "primary" })} to="/">
      Go Home
    </Link>
  </StatusView>
)
