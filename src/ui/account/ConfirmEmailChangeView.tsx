import { useActorRef, useSelector } from "@xstate/react"
import { Link, useSearchParams } from "react-router-dom"
import { selectConfirmedEmail, selectEmailChangeDetail, selectEmailChangeStep } from "../../machines/account/emailChangeMachine.ts"
import { button } from "../shared/controls.css.ts"
import { useServices } from "../shared/ServicesContext.tsx"
import * as styles from "./AccountForm.css.ts"
import { PendingPanel, ResultPanel } from "./ResultPanel.tsx"

/** /confirm-email-change?token=…: the link mailed to the new address. */
export const ConfirmEmailChangeView = () => {
  const token = useSearchParams()[0].get("token") ?? ""
  return <EmailChange key={token} token={token} />
}

const EmailChange = ({ token }: { readonly token: string }) => {
  const services = useServices()
  const change = useActorRef(services.emailChange, { ...services.actorOptions, input: { token } })
  const step = useSelector(change, selectEmailChangeStep)
  const email = useSelector(change, selectConfirmedEmail)
  const detail = useSelector(change, selectEmailChangeDetail)
  const goHome = (
    <Link className={button({ tone: step === "success" ? "primary" : "secondary", block: true })} to="/">
      Go Home
    </Link>
  )
  switch (step) {
    case "confirming":
      return <PendingPanel title="Confirming your new email…" />
    case "success":
      return (
        <ResultPanel title="Email updated" tone="success" actions={goHome}>
          <p className={styles.message}>Your email address has been updated.</p>
          <p className={styles.message}>
            Next time, sign in with <span className={styles.strong}>{email}</span>.
          </p>
        </ResultPanel>
      )
    case "failure":
      return (
        <ResultPanel title="Email not changed" tone="error" actions={goHome}>
          <p className={styles.message}>{detail}</p>
        </ResultPanel>
      )
  }
}
