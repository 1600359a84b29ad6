import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import { type Answer, answered, refused } from "../../../src/domain/contract/answer.ts"
import { Ticket } from "../../../src/domain/Ticket.ts"
import { REPLY_FAILED, REPLY_MESSAGE_REQUIRED, REPLY_SENT } from "../../../src/domain/TicketDesk.ts"
import type { NotificationContent } from "../../../src/machines/shell/notificationsMachine.ts"
import {
  DESK_FAILED_MESSAGE,
  selectDeskError,
  selectDeskStatus,
  selectOpenTicket,
  selectShownTickets,
  ticketDeskMachine
} from "../../../src/machines/support/ticketDeskMachine.ts"
import {
  type Reply,
  type StatusChange,
  selectReply,
  selectStatus,
  ticketStatusMachine
} from "../../../src/machines/support/ticketStatusMachine.ts"

const ticket = (fields: Partial<Ticket> & Pick<Ticket, "id" | "subject">): Ticket =>
  new Ticket({
    user__id: 7,
    user__email: "ann@example.com",
    type: 3,
    description: "It stopped",
    status: 1,
    created_at: "2026-11-24T10:00:00.000Z",
    resolved_at: null,
    first_response_at: null,
    player_context: null,
    ...fields
  })

const TICKETS = [
  ticket({ id: 1, subject: "Sports One froze", type: 3 }),
  ticket({ id: 2, subject: "Charged twice", type: 2, description: "Two payments in November", status: 2 }),
  ticket({ id: 3, subject: "Thanks", type: 5, status: 3 })
]

const start = (
  options: {
    tickets?: () => Promise<Answer<"tickets"> | undefined>
    update?: (change: StatusChange) => Promise<Answer<"updateTicket">>
    reply?: (reply: Reply) => Promise<Answer<"replyToTicket">>
  } = {}
) => {
  const notes: NotificationContent[] = []
  const changes: StatusChange[] = []
  const replies: Reply[] = []
  let loads = 0
  const actor = createActor(
    ticketDeskMachine.provide({
      actors: {
        loadTickets: fromPromise<Answer<"tickets">>(async () => {
          loads += 1
          return (await options.tickets?.()) ?? answered({ success: true, data: TICKETS })
        }),
        ticketStatus: ticketStatusMachine.provide({
          actors: {
            updateTicket: fromPromise<Answer<"updateTicket">, StatusChange>(async ({ input }) => {
              changes.push(input)
              return (await options.update?.(input)) ?? answered({ success: true, resultCode: 1, detail: "Ticket updated" })
            }),
            sendReply: fromPromise<Answer<"replyToTicket">, Reply>(async ({ input }) => {
              replies.push(input)
              return (await options.reply?.(input)) ?? answered({ success: true, resultCode: 1, detail: "Email added to queue" })
            })
          },
          actions: { notify: (_, content) => void notes.push(content) }
        })
      }
    })
  ).start()
  return { actor, notes, changes, replies, loads: () => loads }
}

const loaded = (actor: ReturnType<typeof start>["actor"]) => waitFor(actor, (snapshot) => !snapshot.hasTag("loading"))
const idle = (ref: NonNullable<ReturnType<typeof selectOpenTicket>>) => waitFor(ref, (snapshot) => !snapshot.hasTag("busy"))

describe("ticket desk machine", () => {
  it("loads the tickets, filters them by category and words, and retries a failure", async () => {
    let calls = 0
    const { actor } = start({ tickets: async () => (calls++ === 0 ? refused(500, "boom") : undefined) })
    let snapshot = await loaded(actor)
    expect(selectDeskStatus(snapshot)).toBe("failed")
    expect(selectDeskError(snapshot)).toBe(`${DESK_FAILED_MESSAGE} Please try again in a moment.`)
    actor.send({ type: "desk.retry" })
    snapshot = await loaded(actor)
    expect(selectShownTickets(snapshot).map((t) => t.id)).toEqual([1, 2, 3])
    actor.send({ type: "filter.category", category: 2 })
    expect(selectShownTickets(actor.getSnapshot()).map((t) => t.id)).toEqual([2])
    actor.send({ type: "filter.category", category: null })
    actor.send({ type: "filter.search", search: "NOVEMBER payments" })
    expect(selectShownTickets(actor.getSnapshot()).map((t) => t.id)).toEqual([2])
  })

  it("opens only a listed ticket, and closes it", async () => {
    const { actor } = start()
    await loaded(actor)
    actor.send({ type: "ticket.open", id: 99 })
    expect(selectOpenTicket(actor.getSnapshot())).toBeUndefined()
    actor.send({ type: "ticket.open", id: 2 })
    expect(selectStatus(selectOpenTicket(actor.getSnapshot())?.getSnapshot() as never)).toBe(2)
    actor.send({ type: "ticket.close" })
    expect(selectOpenTicket(actor.getSnapshot())).toBeUndefined()
  })

  it("choosing the current status does nothing; another one updates the ticket and reloads the list", async () => {
    const { actor, changes, loads } = start()
    await loaded(actor)
    actor.send({ type: "ticket.open", id: 1 })
    const open = selectOpenTicket(actor.getSnapshot())
    if (open === undefined) throw new Error("no ticket open")
    open.send({ type: "status.choose", status: 1 })
    expect(changes).toEqual([])
    open.send({ type: "status.choose", status: 3 })
    await idle(open)
    expect(changes).toEqual([{ ticketId: 1, newStatus: 3 }])
    expect(selectStatus(open.getSnapshot())).toBe(3)
    await waitFor(actor, () => loads() === 2)
  })

  it("keeps the status when the change fails, and says why", async () => {
    const { actor, notes } = start({ update: async () => answered({ success: false, resultCode: 24, detail: "Ticket not found" }) })
    await loaded(actor)
    actor.send({ type: "ticket.open", id: 1 })
    const open = selectOpenTicket(actor.getSnapshot())
    if (open === undefined) throw new Error("no ticket open")
    open.send({ type: "status.choose", status: 2 })
    await idle(open)
    expect(selectStatus(open.getSnapshot())).toBe(1)
    expect(notes).toEqual([{ tone: "error", title: "The status could not be changed", message: "Ticket not found" }])
  })

  it("asks for a message, mails the author, and says Success or Fail as SPEC spells them", async () => {
    let calls = 0
    const { actor, notes, replies } = start({
      reply: async () =>
        calls++ === 0
          ? answered({ success: true, resultCode: 1, detail: "Email added to queue" })
          : answered({ success: false, resultCode: 2, detail: "No such ticket" })
    })
    await loaded(actor)
    actor.send({ type: "ticket.open", id: 2 })
    const open = selectOpenTicket(actor.getSnapshot())
    if (open === undefined) throw new Error("no ticket open")
    open.send({ type: "reply.send" })
    expect(selectReply(open.getSnapshot())).toEqual({ text: "", error: REPLY_MESSAGE_REQUIRED })
    open.send({ type: "reply.change", text: "We refunded one." })
    open.send({ type: "reply.send" })
    await idle(open)
    expect(replies).toEqual([{ userId: 7, ticketId: 2, message: "We refunded one." }])
    expect(selectReply(open.getSnapshot()).text).toBe("")
    open.send({ type: "reply.change", text: "Again" })
    open.send({ type: "reply.send" })
    await idle(open)
    expect(notes).toEqual([
      { tone: "success", ...REPLY_SENT },
      { tone: "error", ...REPLY_FAILED }
    ])
    // a failed reply keeps what was written
    expect(selectReply(open.getSnapshot()).text).toBe("Again")
  })
  it("loads the list again after a change made while it was loading, so the list never misses it", async () => {
    const answers: Array<(answer: Answer<"tickets">) => void> = []
    const { actor, loads } = start({ tickets: () => new Promise((resolve) => answers.push(resolve)) })
    actor.send({ type: "ticket.changed" })
    // the first load is dropped for a fresh one
    expect(loads()).toBe(2)
    answers[0]?.(answered({ success: true, data: TICKETS.slice(0, 1) }))
    answers[1]?.(answered({ success: true, data: TICKETS }))
    const snapshot = await loaded(actor)
    expect(
      selectShownTickets(snapshot)
        .map((shown) => shown.id)
        .sort()
    ).toEqual([1, 2, 3])
  })
  it("reads the list again when the ticket is closed while its change is on its way", async () => {
    const { actor, changes, loads } = start({ update: () => new Promise(() => undefined) })
    await loaded(actor)
    actor.send({ type: "ticket.open", id: 1 })
    selectOpenTicket(actor.getSnapshot())?.send({ type: "status.choose", status: 3 })
    expect(changes).toEqual([{ ticketId: 1, newStatus: 3 }])
    actor.send({ type: "ticket.close" })
    expect(selectOpenTicket(actor.getSnapshot())).toBeUndefined()
    await loaded(actor)
    expect(loads()).toBe(2)
  })
})
