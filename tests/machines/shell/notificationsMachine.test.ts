import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { createActor } from "xstate"
import { NOTIFICATION_AUTO_CLOSE_MS, NOTIFICATION_MAX } from "../../../src/domain/Notification.ts"
import { notificationsMachine, selectNotifications } from "../../../src/machines/shell/notificationsMachine.ts"

const add = (title: string) => ({ type: "notification.add" as const, tone: "success" as const, title, message: `${title} message` })

describe("notificationsMachine", () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it("closes a notification after exactly 4000 ms", () => {
    expect(NOTIFICATION_AUTO_CLOSE_MS).toBe(4000)
    const actor = createActor(notificationsMachine).start()
    actor.send(add("Success!"))
    expect(selectNotifications(actor.getSnapshot())).toEqual([{ id: 1, tone: "success", title: "Success!", message: "Success! message" }])
    vi.advanceTimersByTime(3999)
    expect(selectNotifications(actor.getSnapshot())).toHaveLength(1)
    vi.advanceTimersByTime(1)
    expect(selectNotifications(actor.getSnapshot())).toHaveLength(0)
  })

  it("times each notification from when it appeared", () => {
    const actor = createActor(notificationsMachine).start()
    actor.send(add("first"))
    vi.advanceTimersByTime(2000)
    actor.send(add("second"))
    vi.advanceTimersByTime(2000)
    expect(selectNotifications(actor.getSnapshot()).map((n) => n.title)).toEqual(["second"])
    vi.advanceTimersByTime(2000)
    expect(selectNotifications(actor.getSnapshot())).toEqual([])
  })

  it("shows at most 5, dropping the oldest", () => {
    expect(NOTIFICATION_MAX).toBe(5)
    const actor = createActor(notificationsMachine).start()
    for (const title of ["1", "2", "3", "4", "5", "6", "7"]) actor.send(add(title))
    expect(selectNotifications(actor.getSnapshot()).map((n) => n.title)).toEqual(["3", "4", "5", "6", "7"])
    vi.advanceTimersByTime(4000)
    expect(selectNotifications(actor.getSnapshot())).toEqual([])
  })

  it("can be dismissed early, and the pending timer then does nothing", () => {
    const actor = createActor(notificationsMachine).start()
    actor.send(add("a"))
    actor.send(add("b"))
    actor.send({ type: "notification.dismiss", id: 1 })
    expect(selectNotifications(actor.getSnapshot()).map((n) => n.title)).toEqual(["b"])
    expect(vi.getTimerCount()).toBe(1)
    vi.advanceTimersByTime(4000)
    expect(selectNotifications(actor.getSnapshot())).toEqual([])
  })
})
