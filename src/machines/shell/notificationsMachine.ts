import { enqueueActions, type SnapshotFrom, setup } from "xstate"
import { NOTIFICATION_AUTO_CLOSE_MS, NOTIFICATION_MAX } from "../../domain/Notification.ts"

export type NotificationTone = "success" | "error" | "info"

export interface NotificationContent {
  readonly tone: NotificationTone
  readonly title: string
  readonly message: string
}

export interface Notification extends NotificationContent {
  readonly id: number
}

export type NotificationsEvent =
  | ({ readonly type: "notification.add" } & NotificationContent)
  | { readonly type: "notification.dismiss"; readonly id: number }

interface NotificationsContext {
  readonly items: ReadonlyArray<Notification>
  readonly nextId: number
}

const timerId = (id: number): string => `notification.autoClose.${id}`

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent
  },
  delays: {
    autoClose: NOTIFICATION_AUTO_CLOSE_MS
  },
  actions: {
    /** Drops the oldest beyond the limit, together with its pending auto-close. */
    addNotification: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== "notification.add") return
      const added: Notification = { id: context.nextId, tone: event.tone, title: event.title, message: event.message }
      const items = [...context.items, added]
      const dropped = items.slice(0, Math.max(0, items.length - NOTIFICATION_MAX))
      for (const old of dropped) enqueue.cancel(timerId(old.id))
      enqueue.assign({ items: items.slice(dropped.length), nextId: context.nextId + 1 })
      enqueue.raise({ type: "notification.dismiss", id: added.id }, { delay: "autoClose", id: timerId(added.id) })
    }),
    removeNotification: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== "notification.dismiss") return
      enqueue.cancel(timerId(event.id))
      enqueue.assign({ items: context.items.filter((item) => item.id !== event.id) })
    })
  }
}).createMachine({
  id: "notifications",
  context: { items: [], nextId: 1 },
  initial: "active",
  states: {
    active: {
      on: {
        "notification.add": { actions: "addNotification" },
        "notification.dismiss": { actions: "removeNotification" }
      }
    }
  }
})

export type NotificationsSnapshot = SnapshotFrom<typeof notificationsMachine>

export const selectNotifications = (snapshot: NotificationsSnapshot): ReadonlyArray<Notification> => snapshot.context.items
