import { formatDate, formatTimeLocal, formatTimeUtc } from "../../domain/Dates.ts"
import { TICKET_CATEGORIES, type Ticket, TicketStatus, ticketCategoryName } from "../../domain/Ticket.ts"
import { DESK_GROUPS, EMPTY_GROUP, formatSpan, RESPONSE_WINDOW_DAYS, responseTimes } from "../../domain/TicketDesk.ts"
import {
  selectAllTickets,
  selectDeskError,
  selectDeskStatus,
  selectFilter,
  selectIsRefreshing,
  selectLoadedAt,
  selectOpenTicket,
  selectShownTickets,
  ticketDeskMachine
} from "../../machines/support/ticketDeskMachine.ts"
import { AccountEmail } from "../shared/AccountEmail.tsx"
import { controlRow, field, fieldLabel, growingField, textInput, visuallyHidden } from "../shared/controls.css.ts"
import { type Column, DataTable, MISSING } from "../shared/DataTable.tsx"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { PageView } from "../shared/PageView.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./TicketDesk.css.ts"
import { TicketModal } from "./TicketModal.tsx"

const when = (iso: string | null) =>
  iso === null ? { date: null, time: null } : { date: formatDate(iso), time: `${formatTimeUtc(iso)} UTC / ${formatTimeLocal(iso)}` }

const columns = (onOpen: (id: number) => void): ReadonlyArray<Column<Ticket>> => [
  { header: "Email", cell: (ticket) => <AccountEmail address={ticket.user__email} />, wide: true },
  { header: "Type", cell: (ticket) => ticketCategoryName(ticket.type), kind: "nowrap" },
  {
    header: "Subject",
    cell: (ticket) => (
      <button type="button" className={styles.subjectButton} onClick={() => onOpen(ticket.id)}>
        {ticket.subject}
      </button>
    ),
    wide: true
  },
  { header: "Description", cell: (ticket) => <span className={styles.clip}>{ticket.description}</span>, wide: true },
  { header: "Date created", cell: (ticket) => when(ticket.created_at).date, kind: "nowrap" },
  { header: "Time created (UTC / local)", cell: (ticket) => when(ticket.created_at).time, kind: "nowrap" },
  { header: "Date resolved", cell: (ticket) => when(ticket.resolved_at).date, kind: "nowrap" },
  { header: "Time resolved", cell: (ticket) => when(ticket.resolved_at).time, kind: "nowrap" }
]

interface GroupProps {
  readonly title: string
  readonly tickets: ReadonlyArray<Ticket>
  readonly showAge: boolean
  readonly now: number
  readonly onOpen: (id: number) => void
}

/** One status's tickets; a click anywhere on a row opens it, as its subject's button does for the keyboard. */
const TicketGroup = ({ title, tickets, showAge, now, onOpen }: GroupProps) => (
  <DataTable
    caption={title}
    columns={[
      ...columns(onOpen),
      ...(showAge
        ? [{ header: "Age", cell: (ticket: Ticket) => formatSpan(now - Date.parse(ticket.created_at)), kind: "nowrap" as const }]
        : [])
    ]}
    rows={tickets}
    rowKey={(ticket) => ticket.id}
    onRowClick={(ticket) => onOpen(ticket.id)}
    empty={EMPTY_GROUP}
  />
)

/** /adminsupport (SPEC §2, staff only): the tickets by status, how fast staff answer, and one ticket at a time in the modal. */
export const TicketDeskView = () => {
  const desk = usePageActor(ticketDeskMachine)
  const { status, error, refreshing, all, shown, filter, now, open } = useSelectors(desk, {
    status: selectDeskStatus,
    error: selectDeskError,
    refreshing: selectIsRefreshing,
    all: selectAllTickets,
    shown: selectShownTickets,
    filter: selectFilter,
    now: selectLoadedAt,
    open: selectOpenTicket
  })
  const answered = responseTimes(all, now)
  const waiting = all.filter((ticket) => ticket.status !== TicketStatus.RESOLVED)
  const oldest = waiting.reduce<number | null>((max, ticket) => Math.max(max ?? 0, now - Date.parse(ticket.created_at)), null)

  return (
    <PageView title="Support Tickets" width="full" busy={refreshing}>
      {status === "loading" ? (
        <LoadingPlaceholder label="Loading the tickets…" count={3} height="96px" />
      ) : status === "failed" ? (
        <RetryNotice message={error} onRetry={() => desk.send({ type: "desk.retry" })} look="alert" />
      ) : (
        <>
          <dl className={surfaces.stats}>
            <div className={surfaces.stat}>
              <dt className={surfaces.statLabel}>Median first response ({RESPONSE_WINDOW_DAYS} days)</dt>
              <dd className={styles.statValue}>{answered === null ? MISSING : formatSpan(answered.median)}</dd>
            </div>
            <div className={surfaces.stat}>
              <dt className={surfaces.statLabel}>90th percentile first response</dt>
              <dd className={styles.statValue}>{answered === null ? MISSING : formatSpan(answered.p90)}</dd>
            </div>
            <div className={surfaces.stat}>
              <dt className={surfaces.statLabel}>Waiting for an answer</dt>
              <dd className={styles.statValue}>{waiting.length}</dd>
            </div>
            <div className={surfaces.stat}>
              <dt className={surfaces.statLabel}>Oldest unresolved</dt>
              <dd className={styles.statValue}>{oldest === null ? MISSING : formatSpan(oldest)}</dd>
            </div>
          </dl>

          <search className={controlRow} aria-label="Filter tickets">
            <div className={field}>
              <label className={fieldLabel} htmlFor="desk-category">
                Category
              </label>
              <select
                id="desk-category"
                className={textInput}
                value={filter.category === null ? "" : String(filter.category)}
                onChange={(event) =>
                  desk.send({ type: "filter.category", category: event.target.value === "" ? null : Number(event.target.value) })
                }
              >
                <option value="">All categories</option>
                {TICKET_CATEGORIES.map((category) => (
                  <option key={category.value} value={category.value}>
                    {category.label}
                  </option>
                ))}
              </select>
            </div>
            <div className={growingField}>
              <label className={fieldLabel} htmlFor="desk-search">
                Search subject and description
              </label>
              <input
                id="desk-search"
                type="search"
                className={textInput}
                value={filter.search}
                onChange={(event) => desk.send({ type: "filter.search", search: event.target.value })}
              />
            </div>
          </search>
          <p className={visuallyHidden} role="status">{`${shown.length} of ${all.length} tickets shown`}</p>

          {DESK_GROUPS.map((group) => (
            <TicketGroup
              key={group.status}
              title={group.title}
              tickets={shown.filter((ticket) => ticket.status === group.status)}
              showAge={group.status !== TicketStatus.RESOLVED}
              now={now}
              onOpen={(id) => desk.send({ type: "ticket.open", id })}
            />
          ))}
        </>
      )}
      {open === undefined ? null : <TicketModal actor={open} onClose={() => desk.send({ type: "ticket.close" })} />}
    </PageView>
  )
}
