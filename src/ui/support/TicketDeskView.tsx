import { useActorRef, useSelector } from "@xstate/react"
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
  selectShownTickets
} from "../../machines/support/ticketDeskMachine.ts"
import { field, fieldLabel, textInput, visuallyHidden } from "../shared/controls.css.ts"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { PageView } from "../shared/PageView.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { useServices } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as table from "../shared/table.css.ts"
import * as styles from "./TicketDesk.css.ts"
import { TicketModal } from "./TicketModal.tsx"

const MISSING = "---"
const when = (iso: string | null) =>
  iso === null ? { date: MISSING, time: MISSING } : { date: formatDate(iso), time: `${formatTimeUtc(iso)} UTC / ${formatTimeLocal(iso)}` }

const COLUMNS = ["Email", "Type", "Subject", "Description", "Date created", "Time created (UTC / local)", "Date resolved", "Time resolved"]

interface GroupProps {
  readonly title: string
  readonly tickets: ReadonlyArray<Ticket>
  readonly showAge: boolean
  readonly now: number
  readonly onOpen: (id: number) => void
}

const TicketGroup = ({ title, tickets, showAge, now, onOpen }: GroupProps) => {
  const id = `group-${title.toLowerCase().replace(/\s+/g, "-")}`
  return (
    <div className={surfaces.panel({ spacing: "compact" })}>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a table wider than the screen scrolls in this region, which the keyboard must reach */}
      <div className={table.tableWrap} tabIndex={0} role="region" aria-labelledby={id}>
        <table className={table.table}>
          <caption id={id} className={table.caption}>
            {title}
          </caption>
          <thead>
            <tr>
              {[...COLUMNS, ...(showAge ? ["Age"] : [])].map((name) => (
                <th key={name} scope="col" className={table.headCell}>
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {tickets.map((ticket) => {
              const created = when(ticket.created_at)
              const resolved = when(ticket.resolved_at)
              return (
                <tr key={ticket.id} className={styles.row} onClick={() => onOpen(ticket.id)}>
                  <td className={table.cell}>{ticket.user__email}</td>
                  <td className={table.nowrapCell}>{ticketCategoryName(ticket.type)}</td>
                  <td className={table.cell}>
                    <button
                      type="button"
                      className={styles.subjectButton}
                      onClick={(event) => {
                        event.stopPropagation()
                        onOpen(ticket.id)
                      }}
                    >
                      {ticket.subject}
                    </button>
                  </td>
                  <td className={table.cell}>
                    <span className={styles.clip}>{ticket.description}</span>
                  </td>
                  <td className={table.nowrapCell}>{created.date}</td>
                  <td className={table.nowrapCell}>{created.time}</td>
                  <td className={table.nowrapCell}>{resolved.date}</td>
                  <td className={table.nowrapCell}>{resolved.time}</td>
                  {showAge ? <td className={table.nowrapCell}>{formatSpan(now - Date.parse(ticket.created_at))}</td> : null}
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
      {tickets.length === 0 ? <p className={styles.none}>{EMPTY_GROUP}</p> : null}
    </div>
  )
}

/** /adminsupport (SPEC §2, staff only): the tickets by status, how fast staff answer, and one ticket at a time in the modal. */
export const TicketDeskView = () => {
  const services = useServices()
  const desk = useActorRef(services.ticketDesk, services.actorOptions)
  const status = useSelector(desk, selectDeskStatus)
  const error = useSelector(desk, selectDeskError)
  const refreshing = useSelector(desk, selectIsRefreshing)
  const all = useSelector(desk, selectAllTickets)
  const shown = useSelector(desk, selectShownTickets)
  const filter = useSelector(desk, selectFilter)
  const now = useSelector(desk, selectLoadedAt)
  const open = useSelector(desk, selectOpenTicket)
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

          <search className={styles.filters} aria-label="Filter tickets">
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
            <div className={field}>
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
