import { lazy, Suspense, useState } from "react"
import type { ModalProps } from "./ModalDialog.tsx"

// Radix's dialog is loaded the first time a dialog opens, not with every page.
const ModalDialog = lazy(() => import("./ModalDialog.tsx").then(({ ModalDialog: Dialog }) => ({ default: Dialog })))

/**
 * A dialog in the house style (see ModalDialog). Once opened it stays mounted, so closing runs
 * Radix's own close: focus goes back where it came from.
 */
export const Modal = (props: ModalProps) => {
  const [opened, setOpened] = useState(props.open)
  if (props.open && !opened) setOpened(true)
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <ModalDialog {...props} />
    </Suspense>
  )
}
