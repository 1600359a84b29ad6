import { useSelector } from "@xstate/react"
import { accountsStreaming, totalConnections } from "../../domain/Connection.ts"
import { adminReportsMachine, selectUsers, selectView } from "../../machines/reports/adminReportsMachine.ts"
import { button } from "../shared/controls.css.ts"
import { PageView } from "../shared/PageView.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { ReportsPanel } from "./ReportsPanel.tsx"
import { UsersPanel } from "./UsersPanel.tsx"

/** /adminreports (SPEC §2, staff only): who is streaming now, and the subscriber and revenue reports. */
export const AdminReportsView = () => {
  const reports = usePageActor(adminReportsMachine, { input: {} })
  const view = useSelector(reports, selectView)
  const users = useSelector(reports, selectUsers)
  const info = users.connections

  return (
    <PageView
      title="Admin Reports"
      width="full"
      actions={
        <>
          {/* aria-disabled, not disabled: the button keeps the focus while the users load */}
          <button
            type="button"
            className={button({ tone: "secondary" })}
            aria-disabled={users.loading || undefined}
            onClick={() => reports.send({ type: "users.refresh" })}
          >
            {users.loading ? "Refreshing…" : "Refresh Users"}
          </button>
          <button type="button" className={button({ tone: "primary" })} onClick={() => reports.send({ type: "view.toggle" })}>
            {view === "reports" ? "Show users" : "Show reports"}
          </button>
        </>
      }
    >
      <dl className={surfaces.stats} aria-busy={users.loading || undefined}>
        <div className={surfaces.stat}>
          <dt className={surfaces.statLabel}>Total connections</dt>
          <dd className={surfaces.statValue}>{info === null ? "–" : totalConnections(info)}</dd>
        </div>
        <div className={surfaces.stat}>
          <dt className={surfaces.statLabel}>Accounts streaming</dt>
          <dd className={surfaces.statValue}>{info === null ? "–" : accountsStreaming(info)}</dd>
        </div>
      </dl>

      {view === "users" ? <UsersPanel actor={reports} /> : <ReportsPanel actor={reports} />}
    </PageView>
  )
}
