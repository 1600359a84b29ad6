import { assign, fromPromise, type SnapshotFrom, setup } from "xstate"
import { AUDIT_FAILED_MESSAGE, type AuditEntry } from "../../domain/Audit.ts"
import type { Answer } from "../../domain/contract/answer.ts"
import { failureHint } from "../shared/answer.ts"
import { notProvided } from "../shared/notProvided.ts"
import { answerOf } from "../shared/params.ts"

export const MORE_FAILED_MESSAGE = "Older entries could not be loaded."

/** The log's filters: "" is everyone, or every action. */
export interface AuditFilter {
  readonly actor: string
  readonly action: string
}

/** What a page is asked with: the filters, and the entry to continue below. */
export interface AuditPageRequest extends AuditFilter {
  readonly before: number | null
}

export type AuditLogEvent =
  | { readonly type: "audit.retry" }
  | { readonly type: "audit.more" }
  | { readonly type: "filter.actor"; readonly actor: string }
  | { readonly type: "filter.action"; readonly action: string }
  | { readonly type: "filter.apply" }
  | { readonly type: "filter.clear" }

export interface AuditLogContext {
  /** newest first */
  readonly entries: ReadonlyArray<AuditEntry>
  /** the filters as typed */
  readonly draft: AuditFilter
  /** the filters the entries were loaded with */
  readonly applied: AuditFilter
  /** the `before` of the next page; null when nothing older is left */
  readonly next: number | null
  readonly error: string | null
}

type PageAnswer = Answer<"auditLog">
const NO_FILTER: AuditFilter = { actor: "", action: "" }

const gotPage = (answer: PageAnswer): boolean => answer._tag === "ok" && answer.body.success
/** The server's own reason when it refused the filters (400), the usual hint otherwise. */
const reasonOf = (message: string, answer: PageAnswer): string =>
  answer._tag === "refused" && answer.status === 400 && answer.detail !== ""
    ? `${message} ${answer.detail}`
    : `${message} ${failureHint(answer)}`

/** /adminaudit (staff only): what staff and operators did, newest first, filtered by actor and by action, a page at a time. */
export const auditLogMachine = setup({
  types: {
    context: {} as AuditLogContext,
    events: {} as AuditLogEvent
  },
  actors: {
    loadPage: fromPromise<PageAnswer, AuditPageRequest>(notProvided("loadPage"))
  },
  guards: {
    gotPage: (_, answer: PageAnswer) => gotPage(answer),
    gotEntries: (_, answer: PageAnswer) => answer._tag === "ok" && answer.body.success && answer.body.data.length > 0,
    hasMore: ({ context }) => context.next !== null
  },
  actions: {
    keepFirstPage: assign((_, answer: PageAnswer) =>
      answer._tag === "ok" ? { entries: answer.body.data, next: answer.body.next, error: null } : {}
    ),
    keepNextPage: assign(({ context }, answer: PageAnswer) =>
      answer._tag === "ok" ? { entries: [...context.entries, ...answer.body.data], next: answer.body.next, error: null } : {}
    ),
    keepFailure: assign((_, answer: PageAnswer) => ({ error: reasonOf(AUDIT_FAILED_MESSAGE, answer) })),
    keepMoreFailure: assign((_, answer: PageAnswer) => ({ error: reasonOf(MORE_FAILED_MESSAGE, answer) })),
    keepDraft: assign(({ context }, change: Partial<AuditFilter>) => ({ draft: { ...context.draft, ...change } })),
    applyDraft: assign(({ context }) => ({
      applied: { actor: context.draft.actor.trim(), action: context.draft.action },
      entries: [],
      next: null
    })),
    clearFilters: assign({ draft: NO_FILTER, applied: NO_FILTER, entries: [], next: null })
  }
}).createMachine({
  id: "auditLog",
  context: { entries: [], draft: NO_FILTER, applied: NO_FILTER, next: null, error: null },
  initial: "loading",
  on: {
    "filter.actor": { actions: { type: "keepDraft", params: ({ event }) => ({ actor: event.actor }) } },
    "filter.action": { actions: { type: "keepDraft", params: ({ event }) => ({ action: event.action }) } },
    // new filters start the list again from the newest entry
    "filter.apply": { target: ".loading", reenter: true, actions: "applyDraft" },
    "filter.clear": { target: ".loading", reenter: true, actions: "clearFilters" }
  },
  states: {
    loading: {
      tags: ["loading"],
      invoke: {
        src: "loadPage",
        input: ({ context }) => ({ ...context.applied, before: null }),
        onDone: [
          { guard: { type: "gotEntries", params: answerOf }, target: "loaded", actions: { type: "keepFirstPage", params: answerOf } },
          { guard: { type: "gotPage", params: answerOf }, target: "empty", actions: { type: "keepFirstPage", params: answerOf } },
          { target: "failed", actions: { type: "keepFailure", params: answerOf } }
        ]
      }
    },
    failed: { tags: ["failed"], on: { "audit.retry": { target: "loading" } } },
    empty: {},
    loaded: {
      initial: "idle",
      states: {
        idle: { on: { "audit.more": { guard: "hasMore", target: "loadingMore" } } },
        loadingMore: {
          tags: ["loadingMore"],
          invoke: {
            src: "loadPage",
            input: ({ context }) => ({ ...context.applied, before: context.next }),
            onDone: [
              { guard: { type: "gotPage", params: answerOf }, target: "idle", actions: { type: "keepNextPage", params: answerOf } },
              { target: "moreFailed", actions: { type: "keepMoreFailure", params: answerOf } }
            ]
          }
        },
        moreFailed: { tags: ["moreFailed"], on: { "audit.more": { target: "loadingMore" } } }
      }
    }
  }
})

export type AuditLogSnapshot = SnapshotFrom<typeof auditLogMachine>
export type AuditLogStatus = "loading" | "failed" | "empty" | "loaded"

export const selectAuditStatus = (snapshot: AuditLogSnapshot): AuditLogStatus =>
  snapshot.hasTag("loading") ? "loading" : snapshot.hasTag("failed") ? "failed" : snapshot.matches("empty") ? "empty" : "loaded"
export const selectEntries = (snapshot: AuditLogSnapshot): ReadonlyArray<AuditEntry> => snapshot.context.entries
export const selectDraft = (snapshot: AuditLogSnapshot): AuditFilter => snapshot.context.draft
export const selectApplied = (snapshot: AuditLogSnapshot): AuditFilter => snapshot.context.applied
export const selectAuditError = (snapshot: AuditLogSnapshot): string | null => snapshot.context.error
export const selectHasMore = (snapshot: AuditLogSnapshot): boolean => snapshot.context.next !== null
export const selectLoadingMore = (snapshot: AuditLogSnapshot): boolean => snapshot.hasTag("loadingMore")
export const selectMoreFailed = (snapshot: AuditLogSnapshot): boolean => snapshot.hasTag("moreFailed")
