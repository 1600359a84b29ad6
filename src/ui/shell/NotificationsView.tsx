import { useSelector } from "@xstate/react"
import { selectNotifications } from "../../machines/shell/notificationsMachine.ts"
import { Icon } from "../shared/Icon.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as styles from "./NotificationsView.css.ts"

export const NotificationsView = () => {
  const { notifications } = useServices()
  const items = useSelector(notifications, selectNotifications)
  return (
    <ul className={styles.region} aria-live="polite" aria-label="Notifications">
      {items.map((item) => (
        // the list is the live region; an error interrupts (a list item may not carry a role of its own)
        <li key={item.id} className={`${styles.item} ${styles.tone[item.tone]}`}>
          <div className={styles.body} role={item.tone === "error" ? "alert" : undefined}>
            <p className={styles.title}>{item.title}</p>
            {item.message === "" ? null : <p className={styles.message}>{item.message}</p>}
          </div>
          <button
            type="button"
            className={styles.dismiss}
            aria-label="Dismiss notification"
            onClick={() => notifications.send({ type: "notification.dismiss", id: item.id })}
          >
            <Icon name="close" size={16} />
          </button>
        </li>
      ))}
    </ul>
  )
}
