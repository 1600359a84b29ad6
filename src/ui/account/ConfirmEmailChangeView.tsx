import { Link, useSearchParams } from "react-router-dom"
import {
  emailChangeMachine,
  selectConfirmedEmail,
  selectEmailChangeDetail,
  selectEmailChangeStep
} from "../../machines/account/emailChangeMachine.ts"
import { button } from "../shared/controls.css.ts"
import { usePageActor } from "../shared/ServicesContext.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./AccountForm.css.ts"
import { PendingPanel, ResultPanel } from "./ResultPanel.tsx"

/** /confirm-email-change?token=…: the link mailed to the new address. */
export const ConfirmEmailChangeView = () => {
  const token = useSearchParams()[0].get("token") ?? ""
  return <EmailChange key={token} token={token} />
}

const EmailChange = ({ token }: { readonly token: string }) => {
  const change = usePageActor(emailChangeMachine, { input: { token } })
  const { step, email, detail } = useSelectors(change, {
    step: selectEmailChangeStep,
    email: selectConfirmedEmail,
    detail: selectEmailChangeDetail
  })
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
