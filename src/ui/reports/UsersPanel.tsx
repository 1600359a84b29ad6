import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import {
  accountsWithMultipleConnections,
  connectionRows,
  feedFigures,
  type MultipleConnections,
  streamHealthFigures
} from "../../domain/Connection.ts"
import { formatDate, formatTimeLocal, formatTimeUtc } from "../../domain/Dates.ts"
import type { FeedStatus, StreamHealth } from "../../domain/Reports.ts"
import { type adminReportsMachine, selectUsers } from "../../machines/reports/adminReportsMachine.ts"
import { AccountEmail } from "../shared/AccountEmail.tsx"
import { button, visuallyHidden } from "../shared/controls.css.ts"
import { type Column, DataTable } from "../shared/DataTable.tsx"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { Modal } from "../shared/Modal.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import * as styles from "./AdminReports.css.ts"
import { SessionsPager } from "./SessionsPager.tsx"

type ReportsActor = ActorRefFrom<typeof adminReportsMachine>
type Session = ReturnType<typeof connectionRows>[number]
type Health = StreamHealth & ReturnType<typeof streamHealthFigures>

const severityLabel = { strong: "several places", light: "more than one connection", none: "" } as const

const IMPOSTERS: ReadonlyArray<Column<string>> = [{ header: "Imposter IP", cell: (ip) => ip, kind: "nowrap" }]

const SHARED: ReadonlyArray<Column<MultipleConnections>> = [
  { header: "Email", cell: (account) => <AccountEmail address={account.email} />, wide: true },
  { header: "Number of connections", cell: (account) => account.connections, kind: "number" }
]

/** A stream's name, with "needs attention" for screen readers where the row's colour says so. */
const streamColumn = <Row extends { readonly stream: string; readonly needsAttention: boolean }>(header: string): Column<Row> => ({
  header,
  cell: (row) => (
    <>
      {row.stream}
      {row.needsAttention ? <span className={visuallyHidden}> (needs attention)</span> : null}
    </>
  ),
  kind: "nowrap"
})

const HEALTH: ReadonlyArray<Column<Health>> = [
  streamColumn("Stream"),
  { header: "Viewers now", cell: (stream) => stream.viewers, kind: "number" },
  { header: "Median start", cell: (stream) => stream.firstFrame, kind: "number" },
  { header: "Rebuffering", cell: (stream) => stream.rebuffering, kind: "number" },
  { header: "Errors", cell: (stream) => stream.errors, kind: "number" }
]

type Feed = FeedStatus & ReturnType<typeof feedFigures>

const FEEDS: ReadonlyArray<Column<Feed>> = [
  streamColumn("Channel"),
  { header: "Feed", cell: (feed) => feed.state, kind: "nowrap" },
  { header: "Upstream", cell: (feed) => feed.upstreamText, kind: "number" },
  { header: "Source", cell: (feed) => feed.sourceText, kind: "nowrap" },
  { header: "Newest part", cell: (feed) => feed.newestText, kind: "number" },
  { header: "Bitrate", cell: (feed) => feed.bitrateText, kind: "number" },
  { header: "Viewers", cell: (feed) => feed.viewers, kind: "number" },
  { header: "Restarts", cell: (feed) => feed.restarts, kind: "number" },
  { header: "Last error", cell: (feed) => feed.errorText, wide: true }
]

const sessionColumns = (actor: ReportsActor, ending: boolean): ReadonlyArray<Column<Session>> => [
  { header: "Date", cell: (row) => formatDate(row.timestamp), kind: "nowrap" },
  { header: "Time (UTC)", cell: (row) => formatTimeUtc(row.timestamp), kind: "nowrap" },
  { header: "Time (local)", cell: (row) => formatTimeLocal(row.timestamp), kind: "nowrap" },
  {
    header: "Email",
    cell: (row) => (
      <>
        <AccountEmail address={row.email} />
        {row.severity === "none" ? null : <span className={visuallyHidden}> ({severityLabel[row.severity]})</span>}
      </>
    ),
    wide: true
  },
  { header: "App", cell: (row) => row.app, kind: "nowrap" },
  { header: "IP", cell: (row) => row.ip, kind: "nowrap" },
  { header: "Token", cell: (row) => <span className={styles.token}>{row.token}</span>, kind: "code", wide: true },
  { header: "Stream", cell: (row) => row.stream, kind: "nowrap" },
  { header: "Device", cell: (row) => row.device, kind: "nowrap" },
  {
    header: "Actions",
    hideHeader: true,
    cell: ({ id, email, stream }) =>
      id === undefined ? (
        ""
      ) : (
        <button
          type="button"
          className={button({ tone: "secondary" })}
          disabled={ending}
          aria-label={`End ${email}'s connection${stream === undefined ? "" : ` to ${stream}`}`}
          onClick={() => actor.send({ type: "users.end", id, email, ...(stream === undefined ? {} : { stream }) })}
        >
          End
        </button>
      )
  }
]

/** The Users view (SPEC §2): unknown addresses, accounts on several devices, each stream's health, and every live session. */
export const UsersPanel = ({ actor }: { readonly actor: ReportsActor }) => {
  const { loading, ending, endAsked, error, connections } = useSelector(actor, selectUsers)
  if (error !== null) return <RetryNotice message={error} onRetry={() => actor.send({ type: "users.refresh" })} look="alert" />
  if (connections === null) return <LoadingPlaceholder label="Loading the live connections…" height="96px" />
  const health = (connections.streams ?? []).map((stream) => ({ ...stream, ...streamHealthFigures(stream) }))
  const feeds = (connections.feeds ?? []).map((feed) => ({ ...feed, ...feedFigures(feed) }))
  return (
    <div className={styles.stack} aria-busy={loading || undefined}>
      {connections.unknownIps.length === 0 ? null : (
        <DataTable caption="UNKNOWN IP WATCHING STREAM" columns={IMPOSTERS} rows={connections.unknownIps} rowKey={(ip) => ip} />
      )}
      <DataTable
        caption="Users With multiple connections"
        columns={SHARED}
        rows={accountsWithMultipleConnections(connections)}
        rowKey={(account) => account.email}
        empty="No account is watching from more than one place."
      />
      <DataTable
        caption="Stream health, last hour"
        columns={HEALTH}
        rows={health}
        rowKey={(stream) => stream.streamId}
        rowTone={(stream) => (stream.needsAttention ? "light" : "none")}
        empty="No stream has been watched in the last hour."
      />
      {feeds.length === 0 ? null : (
        <DataTable
          caption="Relayed channels"
          columns={FEEDS}
          rows={feeds}
          rowKey={(feed) => feed.streamId}
          rowTone={(feed) => (feed.needsAttention ? "strong" : "none")}
        />
      )}
      <Modal
        open={endAsked !== null}
        title="End this connection?"
        onClose={() => actor.send({ type: "users.endCancel" })}
        actions={
          <>
            <button type="button" className={button({ tone: "secondary" })} onClick={() => actor.send({ type: "users.endCancel" })}>
              Keep watching
            </button>
            <button type="button" className={button({ tone: "primary" })} onClick={() => actor.send({ type: "users.endConfirm" })}>
              End connection
            </button>
          </>
        }
      >
        {endAsked === null ? null : (
          <p className={styles.endNote}>
            <AccountEmail address={endAsked.email} />
            's player{endAsked.stream === undefined ? "" : ` on ${endAsked.stream}`} stops within a few seconds and tells the viewer staff
            ended it.
          </p>
        )}
      </Modal>
      <DataTable
        caption="Sessions Streaming"
        columns={sessionColumns(actor, ending)}
        rows={connectionRows(connections)}
        rowKey={(row) => row.id ?? `${row.email} ${row.token} ${row.ip} ${row.app} ${row.timestamp}`}
        rowTone={(row) => row.severity}
        empty="Nobody is streaming right now."
      >
        <SessionsPager actor={actor} />
      </DataTable>
    </div>
  )
}
