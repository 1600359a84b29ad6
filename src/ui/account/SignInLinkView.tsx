import { Link, Navigate, useSearchParams } from "react-router-dom"
import { selectSignInLinkDetail, selectSignInLinkStep, signInLinkMachine } from "../../machines/account/signInLinkMachine.ts"
import { button } from "../shared/controls.css.ts"
import { usePageActor } from "../shared/ServicesContext.tsx"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./AccountForm.css.ts"
import { PendingPanel, ResultPanel, UnreachablePanel } from "./ResultPanel.tsx"

/** /sign-in-link?token=…: the link mailed when new networks may sign in to the account only by email. */
export const SignInLinkView = () => {
  const token = useSearchParams()[0].get("token") ?? ""
  return <SignInWithLink key={token} token={token} />
}

const SignInWithLink = ({ token }: { readonly token: string }) => {
  const link = usePageActor(signInLinkMachine, { input: { token } })
  const { step, detail } = useSelectors(link, { step: selectSignInLinkStep, detail: selectSignInLinkDetail })
  const signIn = (tone: "primary" | "secondary") => (
    <Link className={button({ tone, block: true })} to="/login">
      Sign in with your password
    </Link>
  )
  switch (step) {
    case "signingIn":
      return <PendingPanel title="Signing you in…" />
    // where a sign-in on /login goes too
    case "signedIn":
      return <Navigate to="/" replace />
    case "unreachable":
      return <UnreachablePanel detail={detail} onRetry={() => link.send({ type: "signInLink.retry" })} other={signIn("secondary")} />
    case "invalid":
      return (
        <ResultPanel title="Sign-in link not valid" tone="error" actions={signIn("primary")}>
          <p className={styles.message}>{detail}</p>
        </ResultPanel>
      )
  }
}
