import { describe, expect, it } from "vitest"
import { createActor, fromCallback, fromPromise, waitFor } from "xstate"
import { type Answer, answered, refused, SESSION_ENDED, unreachable } from "../../../src/domain/contract/answer.ts"
import { type NewTicket, OwnTicket, type PlayerContext, playerContextQuery } from "../../../src/domain/Ticket.ts"
import type { NotificationContent } from "../../../src/machines/shell/notificationsMachine.ts"
import {
  type ContactEvent,
  contactMachine,
  selectAttachment,
  selectChatUrl,
  selectFailure,
  selectFieldErrors,
  selectFirstInvalidField,
  selectFormStatus,
  selectIsRefreshingTickets,
  selectTickets,
  selectTicketsError,
  selectTicketsStatus,
  selectValues
} from "../../../src/machines/support/contactMachine.ts"
import { TICKETS_FAILED_MESSAGE } from "../../../src/machines/support/ticketForm.ts"

const CONTEXT: PlayerContext = { stream: "Demo Channel 2", player: 1, errorCode: 2, browser: "Mozilla/5.0 Chrome/156.0" }
const SUBMITTED = answered({ success: true, resultCode: 1, detail: "Ticket submitted" })
const LIMIT_DETAIL = "You can open 10 tickets an hour. Try again in 40 minutes."

const ticket = (id: number, subject: string, status: 1 | 2 | 3 = 1) =>
  new OwnTicket({
    id,
    type: 1,
    subject,
    description: "What happened",
    status,
    created_at: `2026-01-${10 + id}T10:00:00.000Z`,
    resolved_at: null,
    player_context: null
  })

const start = (
  options: {
    search?: string
    submit?: (ticket: NewTicket) => Promise<Answer<"createTicket">>
    load?: () => Promise<Answer<"myTickets">>
    chatUrls?: ReadonlyArray<string>
  } = {}
) => {
  const notes: Array<NotificationContent> = []
  const sent: Array<NewTicket> = []
  let loads = 0
  const actor = createActor(
    contactMachine.provide({
      actors: {
        submitTicket: fromPromise(({ input }) => {
          sent.push(input)
          return options.submit?.(input) ?? Promise.resolve(SUBMITTED)
        }),
        loadTickets: fromPromise(() => {
          loads += 1
          return options.load?.() ?? Promise.resolve(answered({ success: true, data: [ticket(1, "First")] }))
        }),
        siteSettings: fromCallback<ContactEvent>(({ sendBack }) => {
          for (const chatUrl of options.chatUrls ?? ["https://chat.example/invite"]) sendBack({ type: "settings.changed", chatUrl })
        })
      },
      actions: { notify: (_, content) => void notes.push(content) }
    }),
    { input: { search: options.search ?? "" } }
  ).start()
  return { actor, notes, sent, loads: () => loads }
}

type Actor = ReturnType<typeof start>["actor"]
const fill = (actor: Actor, values: { category?: string; subject?: string; description?: string }) => {
  for (const [field, value] of Object.entries(values)) {
    actor.send({ type: "contact.change", field: field as "category" | "subject" | "description", value })
  }
}
const settled = (actor: Actor) => waitFor(actor, (snapshot) => selectFormStatus(snapshot) !== "submitting")
const listed = (actor: Actor) =>
  waitFor(actor, (snapshot) => selectTicketsStatus(snapshot) !== "loading" && !selectIsRefreshingTickets(snapshot))

describe("contactMachine", () => {
  it("loads the viewer's tickets and the chat address, and starts with an empty form", async () => {
    const { actor } = start({ chatUrls: ["https://chat.example/a", "https://chat.example/b"] })
    expect(selectTicketsStatus(actor.getSnapshot())).toBe("loading")
    expect(selectChatUrl(actor.getSnapshot())).toBe("https://chat.example/b")
    await listed(actor)
    expect(selectTickets(actor.getSnapshot()).map((t) => t.subject)).toEqual(["First"])
    expect(selectValues(actor.getSnapshot())).toEqual({ category: "", subject: "", description: "" })
    expect(selectAttachment(actor.getSnapshot())).toBeNull()
    expect(selectFormStatus(actor.getSnapshot())).toBe("editing")
  })

  it("links only to a web address for the chat", () => {
    expect(selectChatUrl(start({ chatUrls: ["javascript:alert(1)"] }).actor.getSnapshot())).toBe("")
    expect(selectChatUrl(start({ chatUrls: [""] }).actor.getSnapshot())).toBe("")
    expect(selectChatUrl(start({ chatUrls: [" http://chat.example "] }).actor.getSnapshot())).toBe("http://chat.example")
  })

  it("shows SPEC §5's messages at their fields, names the first to focus, and sends nothing", () => {
    const { actor, sent } = start()
    actor.send({ type: "contact.submit" })
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({
      category: "Please select a vategory",
      subject: "Please enter a subject",
      description: "Please enter a description"
    })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("category")
    fill(actor, { category: "4", description: "12345" })
    // typing clears that field's message until the next submit
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({ subject: "Please enter a subject" })
    actor.send({ type: "contact.submit" })
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({ subject: "Please enter a subject", description: "Please enter a description" })
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("subject")
    expect(selectFormStatus(actor.getSnapshot())).toBe("editing")
    expect(sent).toEqual([])
  })

  it("sends the ticket as typed, says 'Success!' with the server's detail, empties the form and lists the new ticket", async () => {
    let tickets = [ticket(1, "First")]
    const { actor, sent, notes, loads } = start({ load: () => Promise.resolve(answered({ success: true, data: tickets })) })
    await listed(actor)
    fill(actor, { category: "2", subject: " <b>Invoice</b> ", description: "Where is my receipt?\n" })
    tickets = [ticket(2, " <b>Invoice</b> "), ...tickets]
    actor.send({ type: "contact.submit" })
    expect(selectFormStatus(actor.getSnapshot())).toBe("submitting")
    await settled(actor)
    expect(sent).toEqual([{ type: 2, subject: " <b>Invoice</b> ", description: "Where is my receipt?\n" }])
    expect(notes).toEqual([{ tone: "success", title: "Success!", message: "Ticket submitted" }])
    expect(selectFormStatus(actor.getSnapshot())).toBe("submitted")
    expect(selectValues(actor.getSnapshot())).toEqual({ category: "", subject: "", description: "" })
    await listed(actor)
    expect(loads()).toBe(2)
    expect(selectTickets(actor.getSnapshot()).map((t) => t.subject)).toEqual([" <b>Invoice</b> ", "First"])
    fill(actor, { subject: "Another" })
    expect(selectFormStatus(actor.getSnapshot())).toBe("editing")
  })

  it("keeps everything typed when sending fails, says why, and sends the same ticket again", async () => {
    const answers: Array<Answer<"createTicket">> = [
      refused(429, LIMIT_DETAIL),
      unreachable("network", "Could not reach the server."),
      answered({ success: false, resultCode: 2, detail: "Ticket refused" }),
      refused(400, "subject: Please enter a subject", 19),
      refused(404, "content type"),
      refused(500, "Internal server error"),
      SESSION_ENDED,
      SUBMITTED
    ]
    const { actor, sent, notes } = start({ submit: () => Promise.resolve(answers.shift() ?? SUBMITTED) })
    const typed = { category: "1", subject: "Player freezes", description: "It freezes after a minute" }
    fill(actor, typed)
    for (const message of [
      LIMIT_DETAIL,
      "Check your connection and try again.",
      "Ticket refused",
      "subject: Please enter a subject",
      "Please try again in a moment.",
      "Please try again in a moment.",
      "Please try again in a moment."
    ]) {
      actor.send({ type: "contact.submit" })
      await settled(actor)
      expect(selectFormStatus(actor.getSnapshot())).toBe("failed")
      expect(selectFailure(actor.getSnapshot())).toBe(message)
      expect(notes.at(-1)).toEqual({ tone: "error", title: "Something went wrong", message })
      expect(selectValues(actor.getSnapshot())).toEqual(typed)
    }
    actor.send({ type: "contact.submit" })
    await settled(actor)
    expect(selectFormStatus(actor.getSnapshot())).toBe("submitted")
    expect(selectFailure(actor.getSnapshot())).toBeNull()
    expect(new Set(sent.map((t) => JSON.stringify(t))).size).toBe(1)
  })

  it("keeps what was typed when no answer comes", async () => {
    const { actor, notes } = start({ submit: async () => unreachable("timeout", "The server took too long to answer.") })
    fill(actor, { category: "5", subject: "Hello", description: "Just saying hi" })
    actor.send({ type: "contact.submit" })
    await settled(actor)
    expect(selectFormStatus(actor.getSnapshot())).toBe("failed")
    expect(selectValues(actor.getSnapshot()).description).toBe("Just saying hi")
    expect(notes).toEqual([{ tone: "error", title: "Something went wrong", message: "Check your connection and try again." }])
  })

  it("goes back to editing with the fields' messages when a submit after an answer breaks the rules", async () => {
    const { actor, sent } = start({ submit: async () => refused(500, "Internal server error") })
    fill(actor, { category: "5", subject: "Hello", description: "Just saying hi" })
    actor.send({ type: "contact.submit" })
    await settled(actor)
    fill(actor, { description: "" })
    // typing keeps the reason the ticket was not sent in view
    expect(selectFormStatus(actor.getSnapshot())).toBe("failed")
    actor.send({ type: "contact.submit" })
    expect(selectFormStatus(actor.getSnapshot())).toBe("editing")
    expect(selectFieldErrors(actor.getSnapshot())).toEqual({ description: "Please enter a description" })
    expect(sent).toHaveLength(1)
  })

  it("asks for every field again when the emptied form is submitted after a ticket was sent", async () => {
    const { actor, sent } = start()
    fill(actor, { category: "5", subject: "Hello", description: "Just saying hi" })
    actor.send({ type: "contact.submit" })
    await settled(actor)
    expect(selectFormStatus(actor.getSnapshot())).toBe("submitted")
    actor.send({ type: "contact.submit" })
    expect(selectFormStatus(actor.getSnapshot())).toBe("editing")
    expect(selectFirstInvalidField(actor.getSnapshot())).toBe("category")
    expect(sent).toHaveLength(1)
  })

  it("ignores typing and submits while a ticket is on its way", async () => {
    let answer: (value: Answer<"createTicket">) => void = () => {}
    const { actor, sent } = start({ submit: () => new Promise((resolve) => (answer = resolve)) })
    fill(actor, { category: "5", subject: "Hello", description: "Just saying hi" })
    actor.send({ type: "contact.submit" })
    fill(actor, { subject: "Changed" })
    actor.send({ type: "contact.submit" })
    actor.send({ type: "attachment.remove" })
    expect(sent).toHaveLength(1)
    expect(selectValues(actor.getSnapshot()).subject).toBe("Hello")
    answer(SUBMITTED)
    await settled(actor)
  })

  it("attaches a player context from the query, preselects stream service with a subject, and sends it along", async () => {
    const { actor, sent } = start({ search: `?${playerContextQuery(CONTEXT)}` })
    expect(selectAttachment(actor.getSnapshot())).toEqual(CONTEXT)
    expect(selectValues(actor.getSnapshot())).toEqual({ category: "3", subject: "Problem playing Demo Channel 2", description: "" })
    fill(actor, { description: "Black screen, then the error" })
    actor.send({ type: "contact.submit" })
    await settled(actor)
    expect(sent).toEqual([
      { type: 3, subject: "Problem playing Demo Channel 2", description: "Black screen, then the error", playerContext: CONTEXT }
    ])
    expect(selectAttachment(actor.getSnapshot())).toBeNull()
  })

  it("sends no context once the viewer removes it, and keeps their text", async () => {
    const { actor, sent } = start({ search: playerContextQuery(CONTEXT) })
    fill(actor, { description: "Never mind the details" })
    actor.send({ type: "attachment.remove" })
    expect(selectAttachment(actor.getSnapshot())).toBeNull()
    expect(selectValues(actor.getSnapshot()).subject).toBe("Problem playing Demo Channel 2")
    actor.send({ type: "contact.submit" })
    await settled(actor)
    expect(sent[0]).not.toHaveProperty("playerContext")
  })

  it("attaches nothing from a query that does not read as a player context", () => {
    const { actor } = start({ search: "?stream=X&player=7&error=2&browser=b" })
    expect(selectAttachment(actor.getSnapshot())).toBeNull()
    expect(selectValues(actor.getSnapshot()).category).toBe("")
  })

  it("says the list failed and why, and loads it again on retry", async () => {
    let failing = true
    const { actor, loads } = start({
      load: () => Promise.resolve(failing ? refused(500, "Internal server error") : answered({ success: true, data: [] }))
    })
    await listed(actor)
    expect(selectTicketsStatus(actor.getSnapshot())).toBe("failed")
    expect(selectTicketsError(actor.getSnapshot())).toBe(`${TICKETS_FAILED_MESSAGE} Please try again in a moment.`)
    failing = false
    actor.send({ type: "tickets.retry" })
    expect(selectTicketsStatus(actor.getSnapshot())).toBe("loading")
    await listed(actor)
    expect(selectTicketsStatus(actor.getSnapshot())).toBe("loaded")
    expect(selectTickets(actor.getSnapshot())).toEqual([])
    expect(loads()).toBe(2)
  })

  it("loads the list again when a ticket is sent before the first load answered", async () => {
    const pending: Array<(answer: Answer<"myTickets">) => void> = []
    const { actor, loads } = start({ load: () => new Promise((resolve) => pending.push(resolve)) })
    fill(actor, { category: "5", subject: "Quick", description: "Sent at once" })
    actor.send({ type: "contact.submit" })
    await settled(actor)
    expect(loads()).toBe(2)
    pending[1]?.(answered({ success: true, data: [ticket(1, "Quick")] }))
    await listed(actor)
    expect(selectTickets(actor.getSnapshot()).map((t) => t.subject)).toEqual(["Quick"])
  })
})
