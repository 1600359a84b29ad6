import { AUDIT_ACTION_CODES, type AuditEntry, auditActionLabel, auditActorLabel, EMPTY_AUDIT } from "../../domain/Audit.ts"
import { formatDate, formatTimeLocal, formatTimeUtc } from "../../domain/Dates.ts"
import {
  auditLogMachine,
  selectApplied,
  selectAuditError,
  selectAuditStatus,
  selectDraft,
  selectEntries,
  selectHasMore,
  selectLoadingMore,
  selectMoreFailed
} from "../../machines/audit/auditLogMachine.ts"
import { button, controlRow, field, fieldHint, fieldLabel, growingField, textInput, visuallyHidden } from "../shared/controls.css.ts"
import { type Column, DataTable } from "../shared/DataTable.tsx"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { PageView } from "../shared/PageView.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./AuditLog.css.ts"

const columns: ReadonlyArray<Column<AuditEntry>> = [
  {
    header: "When",
    cell: (entry) => (
      <time dateTime={entry.at}>
        {formatDate(entry.at)} {formatTimeUtc(entry.at)} UTC / {formatTimeLocal(entry.at)}
      </time>
    ),
    kind: "nowrap"
  },
  { header: "Who", cell: (entry) => auditActorLabel(entry.actor), wide: true },
  {
    header: "Action",
    cell: (entry) => (
      <>
        {auditActionLabel(entry.action)}
        <span className={styles.code}>{entry.action}</span>
      </>
    )
  },
  { header: "Target", cell: (entry) => entry.target, wide: true },
  { header: "Detail", cell: (entry) => (entry.detail === "" ? null : <span className={styles.detail}>{entry.detail}</span>), wide: true },
  { header: "From", cell: (entry) => entry.address ?? "Operator CLI", kind: "nowrap" }
]

/** /adminaudit (staff only): what staff and operators changed, who did it, to what, when and from where. */
export const AuditLogView = () => {
  const log = usePageActor(auditLogMachine)
  const { status, entries, draft, applied, error, hasMore, loadingMore, moreFailed } = useSelectors(log, {
    status: selectAuditStatus,
    entries: selectEntries,
    draft: selectDraft,
    applied: selectApplied,
    error: selectAuditError,
    hasMore: selectHasMore,
    loadingMore: selectLoadingMore,
    moreFailed: selectMoreFailed
  })
  const filtered = applied.actor !== "" || applied.action !== ""

  return (
    <PageView
      title="Audit Log"
      lead="Changes made by staff on this site and by operators with the command line, newest first. Entries are kept for 400 days."
      width="full"
      busy={status === "loading" && entries.length > 0}
    >
      <search aria-label="Filter the audit log">
        <form
          className={styles.filters}
          onSubmit={(event) => {
            event.preventDefault()
            log.send({ type: "filter.apply" })
          }}
        >
          <div className={controlRow}>
            <div className={growingField}>
              <label className={fieldLabel} htmlFor="audit-actor">
                Actor
              </label>
              <input
                id="audit-actor"
                type="search"
                className={textInput}
                value={draft.actor}
                autoComplete="off"
                spellCheck={false}
                aria-describedby="audit-actor-hint"
                onChange={(event) => log.send({ type: "filter.actor", actor: event.target.value })}
              />
            </div>
            <div className={field}>
              <label className={fieldLabel} htmlFor="audit-action">
                Action
              </label>
              <select
                id="audit-action"
                className={textInput}
                value={draft.action}
                onChange={(event) => log.send({ type: "filter.action", action: event.target.value })}
              >
                <option value="">All actions</option>
                {AUDIT_ACTION_CODES.map((code) => (
                  <option key={code} value={code}>
                    {auditActionLabel(code)} ({code})
                  </option>
                ))}
              </select>
            </div>
          </div>
          <p id="audit-actor-hint" className={fieldHint}>
            Actor: an email, or cli: and the operator's user name (such as cli:root). Leave it empty for everyone.
          </p>
          <div className={styles.buttons}>
            <button type="submit" className={button({ tone: "primary" })}>
              Apply filters
            </button>
            <button type="button" className={button({ tone: "secondary" })} onClick={() => log.send({ type: "filter.clear" })}>
              Clear filters
            </button>
          </div>
        </form>
      </search>

      {status === "loading" ? (
        <LoadingPlaceholder label="Loading the audit log…" count={3} height="72px" />
      ) : status === "failed" ? (
        <RetryNotice message={error} onRetry={() => log.send({ type: "audit.retry" })} />
      ) : status === "empty" ? (
        <div className={surfaces.notice} role="status">
          <p className={styles.emptyTitle}>{EMPTY_AUDIT}</p>
          <p className={surfaces.muted}>
            {filtered
              ? "Nothing matches these filters. Clear them to see every entry."
              : "Changes made by staff and operators show up here."}
          </p>
        </div>
      ) : (
        <>
          <p
            className={visuallyHidden}
            role="status"
          >{`${entries.length} ${entries.length === 1 ? "entry" : "entries"} shown${hasMore ? ", more are older" : ""}`}</p>
          <DataTable caption="Audit entries" columns={columns} rows={entries} rowKey={(entry) => entry.id}>
            {hasMore || moreFailed ? (
              <div className={styles.more}>
                {moreFailed ? (
                  <RetryNotice message={error} onRetry={() => log.send({ type: "audit.more" })} look="alert" partial />
                ) : (
                  <button
                    type="button"
                    className={button({ tone: "secondary" })}
                    aria-disabled={loadingMore}
                    onClick={() => (loadingMore ? undefined : log.send({ type: "audit.more" }))}
                  >
                    {loadingMore ? "Loading older entries…" : "Load older entries"}
                  </button>
                )}
              </div>
            ) : null}
          </DataTable>
        </>
      )}
    </PageView>
  )
}
