import * as Dialog from "@radix-ui/react-dialog"
import { type ReactNode, useRef } from "react"
import * as styles from "./Modal.css.ts"

export interface ModalProps {
  readonly open: boolean
  readonly title: string
  /** Escape, a click outside and the Close button all end up here. */
  readonly onClose: () => void
  readonly description?: string
  /** the description's language, when it is not the page's */
  readonly descriptionLang?: string
  readonly children?: ReactNode
  readonly actions: ReactNode
}

/**
 * Radix returns focus only to a Dialog.Trigger, and these dialogs open from machine state, so they
 * have none: without this, closing leaves focus on <body>. Focus goes back to whatever had it when
 * the dialog opened; when that is gone (or was nothing, as for a dialog that opens by itself), to
 * the page's heading, which says where the viewer is and where reading and tabbing carry on (the
 * main landmark when the page has no heading).
 */
const returnFocus = (opener: HTMLElement | null) => {
  if (opener !== null && opener !== document.body && opener.isConnected) {
    opener.focus()
    return
  }
  const heading = document.querySelector<HTMLElement>("main h1")
  if (heading === null) {
    document.querySelector<HTMLElement>("main[tabindex]")?.focus()
    return
  }
  // focusable by script only, as the main landmark is; Tab still starts from here
  if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1
  heading.focus()
}

/** A Radix dialog in the house style: focus is trapped and returned, Escape closes. */
export const ModalDialog = ({ open, title, onClose, description, descriptionLang, children, actions }: ModalProps) => {
  const opener = useRef<HTMLElement | null>(null)
  return (
    <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles.overlay} />
        <Dialog.Content
          className={styles.content}
          // runs before Radix moves focus into the dialog
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault()
            returnFocus(opener.current)
            opener.current = null
          }}
          // without a description, an explicit undefined tells Radix the omission is deliberate
          {...(description === undefined ? { "aria-describedby": undefined } : {})}
        >
          <Dialog.Title className={styles.title}>{title}</Dialog.Title>
          {description === undefined ? null : (
            <Dialog.Description className={styles.body} lang={descriptionLang}>
              {description}
            </Dialog.Description>
          )}
          {children}
          <div className={styles.actions}>{actions}</div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
