import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { accountsWithMultipleConnections, connectionRows, streamHealthFigures } from "../../domain/Connection.ts"
import { formatDate, formatTimeLocal, formatTimeUtc } from "../../domain/Dates.ts"
import { type adminReportsMachine, selectUsers } from "../../machines/reports/adminReportsMachine.ts"
import { selectUsersPager } from "../../machines/reports/usersPager.ts"
import { button, visuallyHidden } from "../shared/controls.css.ts"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import * as table from "../shared/table.css.ts"
import * as styles from "./AdminReports.css.ts"

const severityLabel = { strong: "several places", light: "more than one connection", none: "" } as const

/** The Users view (SPEC §2): unknown addresses, accounts on several devices, and every live session. */
export const UsersPanel = ({ actor }: { readonly actor: ActorRefFrom<typeof adminReportsMachine> }) => {
  const { loading, ending, error, connections } = useSelector(actor, selectUsers)

  if (error !== null) return <RetryNotice message={error} onRetry={() => actor.send({ type: "users.refresh" })} look="alert" />
  if (connections === null) return <LoadingPlaceholder label="Loading the live connections…" height="96px" />
  const shared = accountsWithMultipleConnections(connections)
  const rows = connectionRows(connections)
  const streams = connections.streams ?? []
  return (
    <div className={styles.stack} aria-busy={loading || undefined}>
      {connections.unknownIps.length === 0 ? null : (
        <div className={surfaces.panel({ spacing: "compact" })}>
          {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a table wider than the screen scrolls in this region, which the keyboard must reach */}
          <div className={table.tableWrap} tabIndex={0} role="region" aria-labelledby="unknown-ips">
            <table className={table.table}>
              <caption id="unknown-ips" className={table.caption}>
                UNKNOWN IP WATCHING STREAM
              </caption>
              <thead>
                <tr>
                  <th scope="col" className={table.headCell}>
                    Imposter IP
                  </th>
                </tr>
              </thead>
              <tbody>
                {connections.unknownIps.map((ip) => (
                  <tr key={ip}>
                    <td className={table.cell}>{ip}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </div>
      )}

      <div className={surfaces.panel({ spacing: "compact" })}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a table wider than the screen scrolls in this region, which the keyboard must reach */}
        <div className={table.tableWrap} tabIndex={0} role="region" aria-labelledby="multiple-connections">
          <table className={table.table}>
            <caption id="multiple-connections" className={table.caption}>
              Users With multiple connections
            </caption>
            <thead>
              <tr>
                <th scope="col" className={table.headCell}>
                  Email
                </th>
                <th scope="col" className={table.numberHeadCell}>
                  Number of connections
                </th>
              </tr>
            </thead>
            <tbody>
              {shared.map((account) => (
                <tr key={account.email}>
                  <td className={table.cell}>{account.email}</td>
                  <td className={table.numberCell}>{account.connections}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {shared.length === 0 ? <p className={table.empty}>No account is watching from more than one place.</p> : null}
      </div>

      <div className={surfaces.panel({ spacing: "compact" })}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a table wider than the screen scrolls in this region, which the keyboard must reach */}
        <div className={table.tableWrap} tabIndex={0} role="region" aria-labelledby="stream-health">
          <table className={table.table}>
            <caption id="stream-health" className={table.caption}>
              Stream health, last hour
            </caption>
            <thead>
              <tr>
                <th scope="col" className={table.headCell}>
                  Stream
                </th>
                <th scope="col" className={table.numberHeadCell}>
                  Viewers now
                </th>
                <th scope="col" className={table.numberHeadCell}>
                  Median start
                </th>
                <th scope="col" className={table.numberHeadCell}>
                  Rebuffering
                </th>
                <th scope="col" className={table.numberHeadCell}>
                  Errors
                </th>
              </tr>
            </thead>
            <tbody>
              {streams.map((stream) => {
                const figures = streamHealthFigures(stream)
                return (
                  <tr key={stream.streamId} className={figures.needsAttention ? styles.lightRow : undefined}>
                    <td className={table.nowrapCell}>
                      {stream.stream}
                      {figures.needsAttention ? <span className={visuallyHidden}> (needs attention)</span> : null}
                    </td>
                    <td className={table.numberCell}>{stream.viewers}</td>
                    <td className={table.numberCell}>{figures.firstFrame}</td>
                    <td className={table.numberCell}>{figures.rebuffering}</td>
                    <td className={table.numberCell}>{stream.errors}</td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
        {streams.length === 0 ? <p className={table.empty}>No stream has been watched in the last hour.</p> : null}
      </div>

      <div className={surfaces.panel({ spacing: "compact" })}>
        {/* biome-ignore lint/a11y/noNoninteractiveTabindex lint/a11y/useSemanticElements: a table wider than the screen scrolls in this region, which the keyboard must reach */}
        <div className={table.tableWrap} tabIndex={0} role="region" aria-labelledby="sessions-streaming">
          <table className={table.table}>
            <caption id="sessions-streaming" className={table.caption}>
              Sessions Streaming
            </caption>
            <thead>
              <tr>
                {["Date", "Time (UTC)", "Time (local)", "Email", "App", "IP", "Token", "Stream", "Device"].map((name) => (
                  <th key={name} scope="col" className={table.headCell}>
                    {name}
                  </th>
                ))}
                <th scope="col" className={table.headCell}>
                  <span className={visuallyHidden}>Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => {
                return (
                  <tr
                    key={row.id ?? `${row.email} ${row.token} ${row.ip} ${row.app} ${row.timestamp}`}
                    className={row.severity === "strong" ? styles.strongRow : row.severity === "light" ? styles.lightRow : undefined}
                  >
                    <td className={table.nowrapCell}>{formatDate(row.timestamp)}</td>
                    <td className={table.nowrapCell}>{formatTimeUtc(row.timestamp)}</td>
                    <td className={table.nowrapCell}>{formatTimeLocal(row.timestamp)}</td>
                    <td className={table.nowrapCell}>
                      {row.email}
                      {row.severity === "none" ? null : <span className={visuallyHidden}> ({severityLabel[row.severity]})</span>}
                    </td>
                    <td className={table.cell}>{row.app}</td>
                    <td className={table.nowrapCell}>{row.ip}</td>
                    <td className={table.cell}>{row.token}</td>
                    <td className={table.nowrapCell}>{row.stream ?? "---"}</td>
                    <td className={table.nowrapCell}>{row.device ?? "---"}</td>
                    <td className={table.nowrapCell}>
                      {row.id === undefined ? null : (
                        <button
                          type="button"
                          className={button({ tone: "secondary" })}
                          disabled={ending}
                          aria-label={`End ${row.email}'s connection${row.stream === undefined ? "" : ` to ${row.stream}`}`}
                          onClick={() => actor.send({ type: "users.end", id: row.id ?? 0 })}
                        >
                          End
                        </button>
                      )}
                    </td>
                  </tr>
                )
              })}
            </tbody>
          </table>
        </div>
        {rows.length === 0 ? <p className={table.empty}>Nobody is streaming right now.</p> : null}
        <Pager actor={actor} />
      </div>
    </div>
  )
}

const count = new Intl.NumberFormat("en-US")

/** Which rows of the 'Sessions Streaming' table are shown, and the way to the others. */
const Pager = ({ actor }: { readonly actor: ActorRefFrom<typeof adminReportsMachine> }) => {
  const pager = useSelector(actor, selectUsersPager)
  if (pager === null) return null
  const { first, last, rows, pages, asked, turning, canGoBack, canGoOn } = pager
  const turn = (page: number) => actor.send({ type: "users.page", page })
  return (
    <nav className={styles.pager} aria-label="Sessions Streaming pages">
      <p className={styles.pagerText} aria-live="polite">
        Rows {count.format(first)}–{count.format(last)} of {count.format(rows)}
        {turning ? <span className={surfaces.muted}> · loading page {count.format(asked)}…</span> : null}
      </p>
      <div className={styles.toolbar}>
        <button type="button" className={button({ tone: "secondary" })} disabled={!canGoBack} onClick={() => turn(1)}>
          First
        </button>
        <button type="button" className={button({ tone: "secondary" })} disabled={!canGoBack} onClick={() => turn(asked - 1)}>
          Previous
        </button>
        <button type="button" className={button({ tone: "secondary" })} disabled={!canGoOn} onClick={() => turn(asked + 1)}>
          Next
        </button>
        <button type="button" className={button({ tone: "secondary" })} disabled={!canGoOn} onClick={() => turn(pages)}>
          Last
        </button>
      </div>
    </nav>
  )
}
