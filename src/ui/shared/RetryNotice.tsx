import type { ReactNode } from "react"
import { button } from "./controls.css.ts"
import * as surfaces from "./surfaces.css.ts"

interface RetryNoticeProps {
  readonly message: ReactNode
  readonly onRetry: () => void
  readonly retryLabel?: string
  /** `notice` stands where the page's content would be; `alert` is a line within a page or panel. */
  readonly look?: "notice" | "alert"
  /** What failed is only part of what is shown, so trying again is not the page's main action. */
  readonly partial?: boolean
  /** `status` for a page that still works without what failed. */
  readonly role?: "alert" | "status"
}

/** What could not be loaded, said where it would have been, with the button that asks again. */
export const RetryNotice = ({
  message,
  onRetry,
  retryLabel = "Try again",
  look = "notice",
  partial = false,
  role = "alert"
}: RetryNoticeProps) => (
  <div className={look === "notice" ? surfaces.notice : surfaces.alert} role={role}>
    <p className={surfaces.noticeText}>{message}</p>
    <button type="button" className={button({ tone: partial ? "secondary" : "primary" })} onClick={onRetry}>
      {retryLabel}
    </button>
  </div>
)
