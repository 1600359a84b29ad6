import { Link } from "react-router-dom"
import { button } from "../shared/controls.css.ts"
import { StatusView } from "../shared/StatusView.tsx"
import { muted } from "../shared/surfaces.css.ts"

export const NOT_FOUND_TITLE = "Page not found"

export const NotFoundView = ({ placement = "inline" }: { readonly placement?: "screen" | "inline" }) => (
  <StatusView title={NOT_FOUND_TITLE} placement={placement}>
    <p className={muted}>The page you are looking for does not exist or has moved.</p>
    <Link className={button({ tone: "primary" })} to="/">
      Go Home
    </Link>
  </StatusView>
)
