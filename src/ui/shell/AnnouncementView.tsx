import { useSelector } from "@xstate/react"
import { selectShownAnnouncement } from "../../machines/shell/announcementMachine.ts"
import { selectAnnouncement } from "../../machines/shell/sessionMachine.ts"
import { button } from "../shared/controls.css.ts"
import { Modal } from "../shared/Modal.tsx"
import { useSession } from "../shared/ServicesContext.tsx"

export const AnnouncementView = () => {
  const announcementRef = useSelector(useSession(), selectAnnouncement)
  const announcement = useSelector(announcementRef, (snapshot) => (snapshot === undefined ? null : selectShownAnnouncement(snapshot)))
  if (announcementRef === undefined || announcement === null) return null
  const close = () => announcementRef.send({ type: "announcement.close" })
  return (
    <Modal
      open
      title={announcement.title}
      description={announcement.text}
      onClose={close}
      actions={
        <button type="button" className={button({ tone: "primary" })} onClick={close}>
          Close
        </button>
      }
    />
  )
}
