import { useSelector } from "@xstate/react"
import { selectShownAnnouncement } from "../../machines/announcementMachine.ts"
import { selectAnnouncement } from "../../machines/sessionMachine.ts"
import { button } from "../controls.css.ts"
import { Modal } from "../modal/Modal.tsx"
import { useSession } from "../ServicesContext.tsx"

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
