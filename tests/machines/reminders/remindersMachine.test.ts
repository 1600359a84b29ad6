import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import { type Answer, answered, refused, unreachable } from "../../../src/domain/contract/answer.ts"
import {
  type NewReminder,
  PROGRAMME_STARTED,
  REMINDER_REMOVED,
  REMINDER_SET,
  REMINDERS_FAILED_MESSAGE,
  type Reminder
} from "../../../src/domain/Reminder.ts"
import { REMINDER_NOT_REMOVED, remindersMachine } from "../../../src/machines/reminders/remindersMachine.ts"
import {
  selectByProgramme,
  selectDraft,
  selectError,
  selectIsSetting,
  selectReminders,
  selectRemoving,
  selectStatus
} from "../../../src/machines/reminders/remindersSelectors.ts"
import { CONNECTION_HINT } from "../../../src/machines/shared/answer.ts"
import type { NotificationContent } from "../../../src/machines/shell/notificationsMachine.ts"

const reminder = (id: number, startTime: string, state: Reminder["state"] = "pending"): Reminder => ({
  id,
  streamId: 1,
  channel: "Sports One",
  title: `Match ${id}`,
  startTime,
  endTime: new Date(Date.parse(startTime) + 7_200_000).toISOString(),
  leadMinutes: 10,
  remindAt: new Date(Date.parse(startTime) - 600_000).toISOString(),
  state
})
const EARLY = reminder(1, "2026-11-28T18:00:00.000Z")
const LATE = reminder(2, "2026-11-28T21:00:00.000Z", "sent")
const PROGRAMME = { streamId: 1, startTime: "2026-11-28T20:00:00.000Z", title: "Cup Final", channel: "Sports One" }

interface Fakes {
  readonly load?: ReadonlyArray<Answer<"reminders">>
  readonly create?: (input: NewReminder) => Promise<Answer<"createReminder">>
  readonly remove?: (input: { readonly id: number }) => Promise<Answer<"deleteReminder">>
}

const start = (fakes: Fakes = {}) => {
  const notices: Array<NotificationContent> = []
  const created: Array<NewReminder> = []
  let loads = 0
  const actor = createActor(
    remindersMachine.provide({
      actors: {
        loadReminders: fromPromise(async () => {
          const answers = fakes.load ?? [answered({ success: true, data: [LATE, EARLY] })]
          const answer = answers[Math.min(loads, answers.length - 1)]
          loads += 1
          if (answer === undefined) throw new Error("no answer")
          return answer
        }),
        createReminder: fromPromise(async ({ input }) => {
          created.push(input)
          return fakes.create?.(input) ?? answered({ success: true, data: reminder(9, input.startTime), detail: REMINDER_SET } as const)
        }),
        deleteReminder: fromPromise(async ({ input }) => fakes.remove?.(input) ?? answered({ success: true, detail: REMINDER_REMOVED }))
      },
      actions: { notify: (_, content) => void notices.push(content) }
    })
  ).start()
  return { actor, notices, created, loads: () => loads }
}

const ready = (actor: ReturnType<typeof start>["actor"]) => waitFor(actor, (snapshot) => selectStatus(snapshot) !== "loading")

describe("remindersMachine", () => {
  it("loads the viewer's reminders and finds them by programme", async () => {
    const { actor } = start()
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    const snapshot = await ready(actor)
    expect(selectStatus(snapshot)).toBe("loaded")
    expect(selectReminders(snapshot)).toEqual([LATE, EARLY])
    expect(selectByProgramme(snapshot).get("1|2026-11-28T18:00:00.000Z")).toEqual(EARLY)
    // the same map while the list is the same
    expect(selectByProgramme(actor.getSnapshot())).toBe(selectByProgramme(snapshot))
  })

  it("says why the list could not be loaded, and loads it again on retry", async () => {
    const { actor, loads } = start({ load: [unreachable("network", "offline"), answered({ success: true, data: [] })] })
    const failed = await ready(actor)
    expect(selectStatus(failed)).toBe("failed")
    expect(selectError(failed)).toBe(`${REMINDERS_FAILED_MESSAGE} ${CONNECTION_HINT}`)
    actor.send({ type: "reminders.retry" })
    expect(selectStatus(await ready(actor))).toBe("empty")
    expect(loads()).toBe(2)
  })

  it("sets a reminder with 10 minutes unless another lead is chosen, and keeps the list by start", async () => {
    const { actor, notices, created } = start()
    await ready(actor)
    actor.send({ type: "reminder.ask", programme: PROGRAMME })
    expect(selectDraft(actor.getSnapshot())).toEqual({ programme: PROGRAMME, leadMinutes: 10, error: null })
    actor.send({ type: "reminder.chooseLead", minutes: 30 })
    actor.send({ type: "reminder.set" })
    expect(selectIsSetting(actor.getSnapshot())).toBe(true)
    const done = await waitFor(actor, (snapshot) => selectDraft(snapshot) === null)
    expect(created).toEqual([{ streamId: 1, startTime: PROGRAMME.startTime, leadMinutes: 30 }])
    expect(selectReminders(done).map((r) => r.id)).toEqual([1, 9, 2])
    expect(notices).toEqual([{ tone: "success", title: REMINDER_SET, message: "" }])
  })

  it("keeps the dialog open with the server's reason when it refuses, and closes it on cancel", async () => {
    const { actor, notices } = start({ create: async () => refused(409, PROGRAMME_STARTED) })
    await ready(actor)
    actor.send({ type: "reminder.ask", programme: PROGRAMME })
    actor.send({ type: "reminder.set" })
    const refusedDraft = await waitFor(actor, (snapshot) => selectDraft(snapshot)?.error !== null && !selectIsSetting(snapshot))
    expect(selectDraft(refusedDraft)?.error).toBe(PROGRAMME_STARTED)
    // choosing again clears the reason
    actor.send({ type: "reminder.chooseLead", minutes: 5 })
    expect(selectDraft(actor.getSnapshot())).toMatchObject({ leadMinutes: 5, error: null })
    actor.send({ type: "reminder.cancel" })
    expect(selectDraft(actor.getSnapshot())).toBeNull()
    expect(selectReminders(actor.getSnapshot())).toHaveLength(2)
    expect(notices).toEqual([])
  })

  it("removes one reminder at a time, and says so when removing fails", async () => {
    let fail = false
    const { actor, notices } = start({
      remove: async () => (fail ? refused(500, "Internal server error") : answered({ success: true, detail: REMINDER_REMOVED }))
    })
    await ready(actor)
    actor.send({ type: "reminder.remove", id: 2 })
    expect(selectRemoving(actor.getSnapshot())).toBe(2)
    // a second removal waits for the first
    actor.send({ type: "reminder.remove", id: 1 })
    const removed = await waitFor(actor, (snapshot) => selectRemoving(snapshot) === null)
    expect(selectReminders(removed)).toEqual([EARLY])
    fail = true
    actor.send({ type: "reminder.remove", id: 1 })
    const kept = await waitFor(actor, (snapshot) => selectRemoving(snapshot) === null)
    expect(selectReminders(kept)).toEqual([EARLY])
    expect(notices).toEqual([
      { tone: "success", title: REMINDER_REMOVED, message: "" },
      { tone: "error", title: REMINDER_NOT_REMOVED, message: "Internal server error" }
    ])
  })
})
