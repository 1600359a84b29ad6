import {
  type ActorRefFrom,
  type EventObject,
  enqueueActions,
  type MachineContext,
  type ParameterizedObject,
  type ProvidedActor
} from "xstate"
import type { NotificationContent, notificationsMachine } from "../machines/shell/notificationsMachine.ts"

/**
 * A page machine's `notify` action: each notification it names (one, or several at once) is
 * shown, once its transition is done. Its types come from the machine it is provided to.
 */
export const notifyVia = <
  TContext extends MachineContext,
  TEvent extends EventObject,
  TActor extends ProvidedActor,
  TAction extends ParameterizedObject,
  TGuard extends ParameterizedObject,
  TDelay extends string,
  TEmitted extends EventObject
>(
  notifications: ActorRefFrom<typeof notificationsMachine>
) =>
  enqueueActions<
    TContext,
    TEvent,
    NotificationContent | ReadonlyArray<NotificationContent>,
    TEvent,
    TActor,
    TAction,
    TGuard,
    TDelay,
    TEmitted
  >(({ enqueue }, content) => {
    for (const one of Array.isArray(content) ? content : [content]) enqueue.sendTo(notifications, { type: "notification.add", ...one })
  })
