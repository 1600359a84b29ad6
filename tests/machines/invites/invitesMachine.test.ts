import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import { answered, unreachable } from "../../../src/domain/contract/answer.ts"
import { Invitation } from "../../../src/domain/Invitation.ts"
import {
  INVITES_FAILED_MESSAGE,
  type InvitesAnswers,
  invitesMachine,
  SHARE_FAILED_MESSAGE,
  type ShareRequest,
  selectCompleted,
  selectError,
  selectRedemption,
  selectRegistered,
  selectStatus
} from "../../../src/machines/invites/invitesMachine.ts"
import type { NotificationContent } from "../../../src/machines/shell/notificationsMachine.ts"

const LINK = "https://tv.example/register?invite=abcdefghijklmnop"

const answers = (overrides: Partial<InvitesAnswers> = {}): InvitesAnswers => ({
  invitations: answered({
    success: true,
    inviteToken: "abcdefghijklmnop",
    inviteLink: LINK,
    data: [
      new Invitation({ newUserEmail: "new@example.com", createdAt: "2026-11-20T10:00:00.000Z", rewardGiven: null }),
      new Invitation({ newUserEmail: "done@example.com", createdAt: "2026-11-01T10:00:00.000Z", rewardGiven: "2026-11-02T09:00:00.000Z" })
    ]
  }),
  rewards: answered({ success: true, rewardPoints: 7, pricePerRewardPoint: 1.5 }),
  plans: answered({ resultCode: 1, subscriptionPrice: 5, discountRates: [5, 10] }),
  canShare: true,
  ...overrides
})

const start = (
  options: {
    load?: () => Promise<InvitesAnswers>
    copy?: (text: string) => Promise<void>
    share?: (request: ShareRequest) => Promise<"shared" | "dismissed">
  } = {}
) => {
  const notes: Array<NotificationContent> = []
  const copied: Array<string> = []
  const shared: Array<ShareRequest> = []
  let loads = 0
  const actor = createActor(
    invitesMachine.provide({
      actors: {
        loadInvites: fromPromise(() => {
          loads += 1
          return options.load?.() ?? Promise.resolve(answers())
        }),
        copyText: fromPromise(({ input }) => {
          copied.push(input.text)
          return options.copy?.(input.text) ?? Promise.resolve()
        }),
        shareLink: fromPromise(({ input }) => {
          shared.push(input)
          return options.share?.(input) ?? Promise.resolve("shared" as const)
        })
      },
      actions: { notify: (_, content) => void notes.push(content) }
    })
  ).start()
  return { actor, notes, copied, shared, loads: () => loads }
}

const loaded = (actor: ReturnType<typeof start>["actor"]) => waitFor(actor, (snapshot) => selectStatus(snapshot) !== "loading")

describe("invitesMachine", () => {
  it("loads the link, the points and the plans, and splits the invitations into registered and completed", async () => {
    const { actor } = start()
    expect(selectStatus(actor.getSnapshot())).toBe("loading")
    const snapshot = await loaded(actor)
    expect(selectStatus(snapshot)).toBe("loaded")
    expect(snapshot.context).toMatchObject({
      inviteLink: LINK,
      points: 7,
      pricePerPoint: 1.5,
      listPrice: 5,
      monthlyPrice: 4.75,
      canShare: true
    })
    expect(selectRegistered(snapshot).map((i) => i.newUserEmail)).toEqual(["new@example.com"])
    expect(selectCompleted(snapshot).map((i) => i.newUserEmail)).toEqual(["done@example.com"])
  })

  it("offers points up to where their value passes the discounted month, and refuses a choice outside them", async () => {
    const { actor } = start()
    await loaded(actor)
    expect(selectRedemption(actor.getSnapshot())).toMatchObject({ options: [0, 1, 2, 3], chosen: 0, monthlyPrice: 4.75 })
    actor.send({ type: "redeem.choose", points: 3 })
    expect(selectRedemption(actor.getSnapshot()).chosen).toBe(3)
    actor.send({ type: "redeem.choose", points: 4 })
    actor.send({ type: "redeem.choose", points: -1 })
    expect(selectRedemption(actor.getSnapshot()).chosen).toBe(3)
  })

  it("copies the link and says so, or says the clipboard refused", async () => {
    let refuse = false
    const { actor, notes, copied } = start({ copy: () => (refuse ? Promise.reject(new Error("denied")) : Promise.resolve()) })
    await loaded(actor)
    actor.send({ type: "link.copy" })
    await waitFor(actor, (snapshot) => !snapshot.hasTag("busy"))
    refuse = true
    actor.send({ type: "link.copy" })
    await waitFor(actor, (snapshot) => !snapshot.hasTag("busy"))
    expect(copied).toEqual([LINK, LINK])
    expect(notes).toEqual([
      { tone: "success", title: "The text is now on your clipboard", message: "" },
      { tone: "error", title: "Access to clipboard failed", message: "" }
    ])
  })

  it("shares the link where the browser can, quietly when the viewer closes the sheet", async () => {
    let outcome: Promise<"shared" | "dismissed"> = Promise.resolve("dismissed")
    const { actor, notes, shared } = start({ share: () => outcome })
    await loaded(actor)
    actor.send({ type: "link.share" })
    await waitFor(actor, (snapshot) => !snapshot.hasTag("busy"))
    outcome = Promise.reject(new Error("NotAllowedError"))
    actor.send({ type: "link.share" })
    await waitFor(actor, (snapshot) => !snapshot.hasTag("busy"))
    expect(shared.map((request) => request.url)).toEqual([LINK, LINK])
    expect(notes).toEqual([{ tone: "error", title: SHARE_FAILED_MESSAGE, message: "" }])
  })

  it("ignores Share where the browser has no share sheet", async () => {
    const { actor, shared } = start({ load: () => Promise.resolve(answers({ canShare: false })) })
    await loaded(actor)
    actor.send({ type: "link.share" })
    expect(actor.getSnapshot().hasTag("busy")).toBe(false)
    expect(shared).toEqual([])
  })

  it("fails with the reason when any call fails, and loads again on retry", async () => {
    let failing = true
    const { actor, loads } = start({
      load: () => Promise.resolve(failing ? answers({ plans: unreachable("network", "Could not reach the server.") }) : answers())
    })
    await loaded(actor)
    expect(selectStatus(actor.getSnapshot())).toBe("failed")
    expect(selectError(actor.getSnapshot())).toBe(`${INVITES_FAILED_MESSAGE} Check your connection and try again.`)
    failing = false
    actor.send({ type: "invites.retry" })
    await loaded(actor)
    expect(selectStatus(actor.getSnapshot())).toBe("loaded")
    expect(loads()).toBe(2)
  })

  it("fails when an answer says no, with a plain retry", async () => {
    const { actor } = start({
      load: () => Promise.resolve(answers({ rewards: answered({ success: false, rewardPoints: 0, pricePerRewardPoint: 0 }) }))
    })
    await loaded(actor)
    expect(selectStatus(actor.getSnapshot())).toBe("failed")
    expect(selectError(actor.getSnapshot())).toBe(`${INVITES_FAILED_MESSAGE} Please try again in a moment.`)
  })

  it("ignores Copy and Share pressed again while the link is being copied or shared", async () => {
    let finishCopy = () => {}
    let finishShare = (_: "shared" | "dismissed") => {}
    const { actor, copied, shared, notes } = start({
      copy: () =>
        new Promise<void>((resolve) => {
          finishCopy = resolve
        }),
      share: () =>
        new Promise((resolve) => {
          finishShare = resolve
        })
    })
    await loaded(actor)
    actor.send({ type: "link.copy" })
    actor.send({ type: "link.copy" })
    actor.send({ type: "link.share" })
    expect(copied).toEqual([LINK])
    expect(shared).toEqual([])
    finishCopy()
    await waitFor(actor, (snapshot) => !snapshot.hasTag("busy"))
    expect(notes).toHaveLength(1)
    actor.send({ type: "link.share" })
    actor.send({ type: "link.share" })
    actor.send({ type: "link.copy" })
    expect(shared).toHaveLength(1)
    expect(copied).toEqual([LINK])
    finishShare("shared")
    await waitFor(actor, (snapshot) => !snapshot.hasTag("busy"))
    expect(shared).toHaveLength(1)
    expect(copied).toEqual([LINK])
  })
})
