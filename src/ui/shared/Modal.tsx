import * as Dialog from "@radix-ui/react-dialog"
import type { ReactNode } from "react"
import * as styles from "./Modal.css.ts"

interface ModalProps {
  readonly open: boolean
  readonly title: string
  /** Escape, a click outside and the Close button all end up here. */
  readonly onClose: () => void
  readonly description?: string
  readonly children?: ReactNode
  readonly actions: ReactNode
}

/** A Radix dialog in the house style: focus is trapped and returned, Escape closes. */
export const Modal = ({ open, title, onClose, description, children, actions }: ModalProps) => (
  <Dialog.Root open={open} onOpenChange={(next) => (next ? undefined : onClose())}>
    <Dialog.Portal>
      <Dialog.Overlay className={styles.overlay} />
      {/* without a description, an explicit undefined tells Radix the omission is deliberate */}
      <Dialog.Content className={styles.content} {...(description === undefined ? { "aria-describedby": undefined } : {})}>
        <Dialog.Title className={styles.title}>{title}</Dialog.Title>
        {description === undefined ? null : (
          <Dialog.Description className={styles.body}>
            {description}
          </Dialog.Description>
        )}
        {children}
        <div className={styles.actions}>{actions}</div>
      </Dialog.Content>
    </Dialog.Portal>
  </Dialog.Root>
)
