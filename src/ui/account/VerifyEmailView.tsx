import { useSelector } from "@xstate/react"
import { Link, useSearchParams } from "react-router-dom"
import { selectVerifyDetail, selectVerifyStep, verifyEmailMachine } from "../../machines/account/verifyEmailMachine.ts"
import { button } from "../shared/controls.css.ts"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as styles from "./AccountForm.css.ts"
import { PendingPanel, ResultPanel, UnreachablePanel } from "./ResultPanel.tsx"

/** /verify?token=…: the link from the confirmation email. */
export const VerifyEmailView = () => {
  const token = useSearchParams()[0].get("token") ?? ""
  return <Verification key={token} token={token} />
}

const Verification = ({ token }: { readonly token: string }) => {
  const verification = usePageActor(verifyEmailMachine, { input: { token } })
  const step = useSelector(verification, selectVerifyStep)
  const detail = useSelector(verification, selectVerifyDetail)
  const signIn = (
    <Link className={button({ tone: step === "verified" ? "primary" : "secondary", block: true })} to="/login">
      Sign in
    </Link>
  )
  switch (step) {
    case "verifying":
      return <PendingPanel title="Verifying your email…" />
    case "verified":
      return (
        <ResultPanel title="Account Verified" tone="success" actions={signIn}>
          <p className={styles.message}>{detail ?? "Your email address is confirmed. You can sign in now."}</p>
        </ResultPanel>
      )
    case "unreachable":
      return <UnreachablePanel detail={detail} onRetry={() => verification.send({ type: "verify.retry" })} other={signIn} />
    case "invalid":
      return (
        <ResultPanel title="Invalid Token" tone="error" actions={signIn}>
          <p className={styles.message}>{detail}</p>
        </ResultPanel>
      )
  }
}
