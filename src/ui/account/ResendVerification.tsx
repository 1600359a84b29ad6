import type { selectResendVerification } from "../../machines/account/loginFormMachine.ts"
import { selectIsResending, selectResendConfirmation, selectResendFailure } from "../../machines/account/resendVerificationMachine.ts"
import { button } from "../shared/controls.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./LoginView.css.ts"

type ResendRef = NonNullable<ReturnType<typeof selectResendVerification>>

/** Under "Email not verified": mails the address a fresh verification link. */
export const ResendVerification = ({ resender }: { readonly resender: ResendRef }) => {
  const { sending, confirmation, failure } = useSelectors(resender, {
    sending: selectIsResending,
    confirmation: selectResendConfirmation,
    failure: selectResendFailure
  })
  return (
    <div className={styles.resend} aria-busy={sending || undefined}>
      {/* aria-disabled, not disabled: the button keeps the focus while the mail is asked for */}
      <button
        type="button"
        className={button({ tone: "secondary", block: true })}
        aria-disabled={sending || undefined}
        onClick={() => resender.send({ type: "resendVerification.send" })}
      >
        {sending ? "Sending the verification email…" : "Send the verification email again"}
      </button>
      <p role="status" className={styles.resendStatus}>
        {confirmation}
      </p>
      {failure === null ? null : (
        <p role="alert" className={styles.resendFailure}>
          {failure}
        </p>
      )}
    </div>
  )
}
