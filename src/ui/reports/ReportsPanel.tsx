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
import { button, visuallyHidden } from "../shared/controls.css.ts"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./AdminReports.css.ts"
import { RangePicker } from "./RangePicker.tsx"
import { ReportCharts } from "./ReportCharts.tsx"
import { detailedFigures, type Figure, lightFigures } from "./reportFigures.ts"

const Figures = ({ figures, label }: { readonly figures: ReadonlyArray<Figure>; readonly label?: string }) => (
  <dl className={styles.figures} aria-label={label}>
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
  const mode = useSelector(actor, selectMode)
  const range = useSelector(actor, selectRange)
  const pendingStart = useSelector(actor, selectPendingStart)
  const { loading, error, reports, series, seriesNote } = useSelector(actor, selectReports)
  const rangeText = `${formatDay(range.start)} – ${formatDay(range.end)}`

  return (
    <>
      <div className={styles.section}>
        <div className={styles.rangeRow}>
          <h2 id="report-range" className={styles.sectionTitle}>
            Custom Range (updates This Month rows)
          </h2>
          <button type="button" className={button({ tone: "secondary" })} onClick={() => actor.send({ type: "mode.switch" })}>
            Switch Report Mode
          </button>
        </div>
        <p className={styles.muted}>
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
        <div className={surfaces.alert} role="alert">
          <p className={surfaces.alertText}>{error}</p>
          <button type="button" className={button({ tone: "primary" })} onClick={() => actor.send({ type: "reports.retry" })}>
            Try again
          </button>
        </div>
      ) : reports === null ? (
        <div role="status" className={styles.section}>
          <span className={visuallyHidden}>Loading the reports…</span>
          <div className={styles.skeleton} aria-hidden="true" />
        </div>
      ) : (
        <div className={styles.page} aria-busy={loading || undefined}>
          {mode === "light" ? (
            <section className={styles.section} aria-labelledby="light-figures">
              <h2 id="light-figures" className={styles.sectionTitle}>
                Reports
              </h2>
              <Figures figures={lightFigures(reports)} />
            </section>
          ) : (
            detailedFigures(reports, `This Month (${rangeText})`).map((block, index) => (
              <section key={block.title} className={styles.section} aria-labelledby={`figures-${index}`}>
                <h2 id={`figures-${index}`} className={styles.sectionTitle}>
                  {block.title}
                </h2>
                <Figures figures={block.figures} />
              </section>
            ))
          )}
          <section className={styles.section} aria-labelledby="report-days">
            <div className={styles.rangeRow}>
              <h2 id="report-days" className={styles.sectionTitle}>
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
            {series === null ? <p className={styles.muted}>{seriesNote}</p> : <ReportCharts series={series} />}
          </section>
        </div>
      )}
    </>
  )
}
