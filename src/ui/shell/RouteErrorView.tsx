import { button } from "../shared/controls.css.ts"
import { StatusView } from "../shared/StatusView.tsx"
import { muted } from "../shared/surfaces.css.ts"
import { PageTitle } from "./PageTitle.tsx"

/** Shown by the router when a page throws while rendering. */
export const RouteErrorView = () => (
  <StatusView title="Something went wrong" placement="screen" role="alert">
    <PageTitle title="Something went wrong" />
    <p className={muted}>This page failed to load. Reloading usually helps.</p>
    <a className={button({ tone: "primary" })} href="/">
      Reload
    </a>
  </StatusView>
)
