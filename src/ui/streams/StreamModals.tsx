import { useSelector } from "@xstate/react"
import type { FormEvent } from "react"
import { PURCHASE, STREAM_MAINTENANCE } from "../../domain/Maintenance.ts"
import { selectIsSendingRequest, selectRequestText } from "../../machines/streams/streamRequestMachine.ts"
import type { StreamModal, selectStreamRequest } from "../../machines/streams/streamSelectionMachine.ts"
import { button } from "../shared/controls.css.ts"
import { FormField } from "../shared/FormField.tsx"
import { Modal } from "../shared/Modal.tsx"

type StreamRequestRef = NonNullable<ReturnType<typeof selectStreamRequest>>

interface StreamModalsProps {
  readonly modal: StreamModal
  readonly request: StreamRequestRef | undefined
  readonly onClose: () => void
  readonly onViewPlans: () => void
}

export const StreamModals = ({ modal, request, onClose, onViewPlans }: StreamModalsProps) => {
  const text = useSelector(request, (snapshot) => (snapshot === undefined ? "" : selectRequestText(snapshot)))
  const sending = useSelector(request, (snapshot) => snapshot !== undefined && selectIsSendingRequest(snapshot))
  const submit = (event: FormEvent) => {
    event.preventDefault()
    request?.send({ type: "request.submit" })
  }
  return (
    <>
      <Modal
        open={modal === "maintenance"}
        title={STREAM_MAINTENANCE.title}
        description={STREAM_MAINTENANCE.text}
        descriptionLang={STREAM_MAINTENANCE.lang}
        onClose={onClose}
        actions={
          <button type="button" className={button({ tone: "primary" })} onClick={onClose}>
            Close
          </button>
        }
      />
      <Modal
        open={modal === "purchase"}
        title={PURCHASE.title}
        description="This stream is available to subscribers."
        onClose={onClose}
        actions={
          <>
            <button type="button" className={button({ tone: "secondary" })} onClick={onClose}>
              Close
            </button>
            <button type="button" className={button({ tone: "primary" })} onClick={onViewPlans}>
              {PURCHASE.button}
            </button>
          </>
        }
      />
      <Modal
        open={modal === "request"}
        title="Request a stream"
        description="Tell us which channel or event you would like to watch."
        onClose={onClose}
        actions={
          <>
            <button type="button" className={button({ tone: "secondary" })} onClick={onClose}>
              Cancel
            </button>
            <button type="submit" form="stream-request-form" className={button({ tone: "primary" })} aria-disabled={sending || undefined}>
              Submit
            </button>
          </>
        }
      >
        <form id="stream-request-form" onSubmit={submit}>
          <FormField
            id="stream-request-text"
            label="Stream you would like to watch"
            type="multiline"
            value={text}
            maxLength={2000}
            // what is being sent stays as it was sent
            readOnly={sending}
            onChange={(value) => request?.send({ type: "request.change", text: value })}
          />
        </form>
      </Modal>
    </>
  )
}
