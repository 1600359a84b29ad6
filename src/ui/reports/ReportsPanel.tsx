import { useSelector } from "@xstate/react"
import type { ActorRefFrom } from "xstate"
import { formatDay } from "../../domain/Dates.ts"
import { reportCsv } from "../../domain/Reports.ts"
import {
  type adminReportsMachine,
  selectMode,
  selectPendingStart,
  selectRange,
  selectReports
} from "../../machines/reports/adminReportsMachine.ts"
import { button } from "../shared/controls.css.ts"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { Panel } from "../shared/Panel.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import * as styles from "./AdminReports.css.ts"
import { RangePicker } from "./RangePicker.tsx"
import { ReportCharts } from "./ReportCharts.tsx"
import { detailedFigures, type Figure, lightFigures, thisMonthLine } from "./reportFigures.ts"

const Figures = ({ figures }: { readonly figures: ReadonlyArray<Figure> }) => (
  <dl className={styles.figures}>
    {figures.map((figure) => (
      <div key={figure.label} className={styles.figure}>
        <dt className={styles.figureLabel}>{figure.label}</dt>
        <dd className={styles.figureValue}>{figure.value}</dd>
      </div>
    ))}
  </dl>
)

/** The Reports view (SPEC §2): the range picker, the light or detailed figures, the charts and the CSV of the range. */
export const ReportsPanel = ({ actor }: { readonly actor: ActorRefFrom<typeof adminReportsMachine> }) => {
  const { mode, range, pendingStart } = useSelectors(actor, { mode: selectMode, range: selectRange, pendingStart: selectPendingStart })
  const { loading, error, reports, series, seriesNote } = useSelector(actor, selectReports)
  const rangeText = `${formatDay(range.start)} – ${formatDay(range.end)}`

  return (
    <>
      <div className={surfaces.panel({ spacing: "compact" })}>
        <div className={styles.rangeRow}>
          <h2 id="report-range" className={surfaces.panelTitle}>
            Custom Range (updates This Month rows)
          </h2>
          <button type="button" className={button({ tone: "secondary" })} onClick={() => actor.send({ type: "mode.switch" })}>
            Switch Report Mode
          </button>
        </div>
        <p className={surfaces.muted}>
          {rangeText} · {mode === "light" ? "Light" : "Detailed"} mode
        </p>
        <RangePicker
          labelId="report-range"
          start={range.start}
          end={range.end}
          pendingStart={pendingStart}
          onDay={(day) => actor.send({ type: "range.day", day })}
        />
      </div>

      {error !== null ? (
        <RetryNotice message={error} onRetry={() => actor.send({ type: "reports.retry" })} look="alert" />
      ) : reports === null ? (
        <LoadingPlaceholder label="Loading the reports…" height="96px" />
      ) : (
        <div className={styles.stack} aria-busy={loading || undefined}>
          {mode === "light" ? (
            <Panel title="Reports" spacing="compact">
              {/* SPEC's "this month" labels stay as written; the range they cover is said once here */}
              <p className={surfaces.muted}>{thisMonthLine(rangeText)}</p>
              <Figures figures={lightFigures(reports)} />
            </Panel>
          ) : (
            detailedFigures(reports, `This Month (${rangeText})`).map((block) => (
              <Panel key={block.title} title={block.title} spacing="compact">
                <Figures figures={block.figures} />
              </Panel>
            ))
          )}
          <section className={surfaces.panel({ spacing: "compact" })} aria-labelledby="report-days">
            <div className={styles.rangeRow}>
              <h2 id="report-days" className={surfaces.panelTitle}>
                Day by day
              </h2>
              {series === null ? null : (
                <a
                  className={button({ tone: "secondary" })}
                  href={`data:text/csv;charset=utf-8,${encodeURIComponent(reportCsv(series.days))}`}
                  download={`reports-${range.start}-to-${range.end}.csv`}
                >
                  Download CSV
                </a>
              )}
            </div>
            {series === null ? <p className={surfaces.muted}>{seriesNote}</p> : <ReportCharts series={series} />}
          </section>
        </div>
      )}
    </>
  )
}
