import { describe, expect, it } from "vitest"
import { createActor, fromPromise, waitFor } from "xstate"
import { AUDIT_FAILED_MESSAGE, type AuditEntry } from "../../../src/domain/Audit.ts"
import { type Answer, answered, refused, unreachable } from "../../../src/domain/contract/answer.ts"
import {
  type AuditPageRequest,
  auditLogMachine,
  MORE_FAILED_MESSAGE,
  selectApplied,
  selectAuditError,
  selectAuditStatus,
  selectDraft,
  selectEntries,
  selectHasMore,
  selectLoadingMore,
  selectMoreFailed
} from "../../../src/machines/audit/auditLogMachine.ts"
import { CONNECTION_HINT } from "../../../src/machines/shared/answer.ts"

const entry = (id: number, fields: Partial<AuditEntry> = {}): AuditEntry => ({
  id,
  at: "2026-01-15T12:00:00.000Z",
  actor: "desk@example.com",
  action: "ticket.status",
  target: `ticket ${id}`,
  detail: "",
  address: "10.0.0.1",
  ...fields
})
const page = (entries: ReadonlyArray<AuditEntry>, next: number | null): Answer<"auditLog"> =>
  answered({ success: true, data: entries, next })

/** A fake call answering in turn (repeating its last answer), keeping what it was asked. */
const calls = (answers: ReadonlyArray<Answer<"auditLog"> | Promise<Answer<"auditLog">>>) => {
  const asked: Array<AuditPageRequest> = []
  return {
    asked,
    actor: fromPromise<Answer<"auditLog">, AuditPageRequest>(async ({ input }) => {
      asked.push(input)
      const answer = answers[Math.min(asked.length - 1, answers.length - 1)]
      if (answer === undefined) throw new Error("no answer")
      return answer
    })
  }
}

const start = (fake: ReturnType<typeof calls>) => createActor(auditLogMachine.provide({ actors: { loadPage: fake.actor } })).start()
type Actor = ReturnType<typeof start>
const settled = (actor: Actor) => waitFor(actor, (snapshot) => selectAuditStatus(snapshot) !== "loading" && !selectLoadingMore(snapshot))

describe("the audit log's flow", () => {
  it("loads the newest page with no filters, then older pages below the last one shown", async () => {
    const fake = calls([page([entry(5), entry(4)], 4), page([entry(3)], null)])
    const log = start(fake)
    expect(selectAuditStatus(log.getSnapshot())).toBe("loading")
    await settled(log)
    expect(selectAuditStatus(log.getSnapshot())).toBe("loaded")
    expect(selectEntries(log.getSnapshot()).map((e) => e.id)).toEqual([5, 4])
    expect(selectHasMore(log.getSnapshot())).toBe(true)

    log.send({ type: "audit.more" })
    expect(selectLoadingMore(log.getSnapshot())).toBe(true)
    await settled(log)
    expect(selectEntries(log.getSnapshot()).map((e) => e.id)).toEqual([5, 4, 3])
    expect(selectHasMore(log.getSnapshot())).toBe(false)
    expect(fake.asked).toEqual([
      { actor: "", action: "", before: null },
      { actor: "", action: "", before: 4 }
    ])
    // nothing older: asking for more asks nothing
    log.send({ type: "audit.more" })
    expect(fake.asked).toHaveLength(2)
  })

  it("says 'No audit entries' when there are none", async () => {
    const log = start(calls([page([], null)]))
    await settled(log)
    expect(selectAuditStatus(log.getSnapshot())).toBe("empty")
  })

  it("says why the log could not be loaded, and tries again on request", async () => {
    const fake = calls([unreachable("network", "offline"), page([entry(1)], null)])
    const log = start(fake)
    await settled(log)
    expect(selectAuditStatus(log.getSnapshot())).toBe("failed")
    expect(selectAuditError(log.getSnapshot())).toBe(`${AUDIT_FAILED_MESSAGE} ${CONNECTION_HINT}`)
    log.send({ type: "audit.retry" })
    await settled(log)
    expect(selectAuditStatus(log.getSnapshot())).toBe("loaded")
  })

  it("shows the server's reason when it refuses the filters", async () => {
    const log = start(calls([refused(400, "actor: Enter an email, or cli: and the operator's user name", 19)]))
    await settled(log)
    expect(selectAuditError(log.getSnapshot())).toBe(`${AUDIT_FAILED_MESSAGE} actor: Enter an email, or cli: and the operator's user name`)
  })

  it("applies the typed filters from the newest entry, and clears them", async () => {
    const fake = calls([page([entry(9), entry(8)], 8), page([entry(7, { actor: "cli:root", action: "maintenance.on" })], null)])
    const log = start(fake)
    await settled(log)
    log.send({ type: "filter.actor", actor: "  cli:root " })
    log.send({ type: "filter.action", action: "maintenance.on" })
    // typing alone asks nothing
    expect(fake.asked).toHaveLength(1)
    expect(selectDraft(log.getSnapshot())).toEqual({ actor: "  cli:root ", action: "maintenance.on" })
    log.send({ type: "filter.apply" })
    expect(selectAuditStatus(log.getSnapshot())).toBe("loading")
    await settled(log)
    expect(selectApplied(log.getSnapshot())).toEqual({ actor: "cli:root", action: "maintenance.on" })
    expect(selectEntries(log.getSnapshot()).map((e) => e.id)).toEqual([7])
    expect(fake.asked[1]).toEqual({ actor: "cli:root", action: "maintenance.on", before: null })

    log.send({ type: "filter.clear" })
    await settled(log)
    expect(selectDraft(log.getSnapshot())).toEqual({ actor: "", action: "" })
    expect(fake.asked[2]).toEqual({ actor: "", action: "", before: null })
  })

  it("keeps what it shows when an older page fails, and asks for it again", async () => {
    const fake = calls([page([entry(2)], 2), unreachable("timeout", "slow"), page([entry(1)], null)])
    const log = start(fake)
    await settled(log)
    log.send({ type: "audit.more" })
    await settled(log)
    expect(selectMoreFailed(log.getSnapshot())).toBe(true)
    expect(selectAuditError(log.getSnapshot())).toBe(`${MORE_FAILED_MESSAGE} ${CONNECTION_HINT}`)
    expect(selectEntries(log.getSnapshot()).map((e) => e.id)).toEqual([2])
    log.send({ type: "audit.more" })
    await settled(log)
    expect(selectMoreFailed(log.getSnapshot())).toBe(false)
    expect(selectEntries(log.getSnapshot()).map((e) => e.id)).toEqual([2, 1])
  })
})
