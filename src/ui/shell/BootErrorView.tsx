import { button } from "../shared/controls.css.ts"
import { StatusView } from "../shared/StatusView.tsx"
import { muted } from "../shared/surfaces.css.ts"
import { PageTitle } from "./PageTitle.tsx"

export const BootErrorView = ({ message, onRetry }: { readonly message: string; readonly onRetry: () => void }) => (
  <StatusView title="Something went wrong" placement="screen" role="alert">
    <PageTitle title="Something went wrong" />
    <p className={muted}>{message}</p>
    <button type="button" className={button({ tone: "primary" })} onClick={onRetry}>
      Try again
    </button>
  </StatusView>
)
