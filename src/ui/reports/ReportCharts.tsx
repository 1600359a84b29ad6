import { useEffect, useRef } from "react"
import type uPlot from "uplot"
import "uplot/dist/uPlot.min.css"
import { formatDay } from "../../domain/Dates.ts"
import { changeAgainst, type ReportDay, type ReportSeries, type ReportTotals } from "../../domain/Reports.ts"
import * as surfaces from "../shared/surfaces.css.ts"
import * as styles from "./AdminReports.css.ts"
import { axisWidth, COUNT_INCREMENTS, countRange, countValue, dayTick, moneyTick, moneyValue } from "./chartAxes.ts"

interface Line {
  readonly label: string
  readonly pick: (day: ReportDay) => number
  readonly color: string
}

interface ChartSpec {
  readonly title: string
  readonly lines: ReadonlyArray<Line>
  readonly money: boolean
}

// the theme's accent, success and info colours: canvas strokes cannot read CSS variables
const CHARTS: ReadonlyArray<ChartSpec> = [
  {
    title: "Revenue per day",
    money: true,
    lines: [
      { label: "Gross", pick: (day) => day.revenue, color: "#5b9dff" },
      { label: "Excluding fees", pick: (day) => day.revenueExcludingFees, color: "#3ecf8e" }
    ]
  },
  {
    title: "New members and subscriptions per day",
    money: false,
    lines: [
      { label: "New members", pick: (day) => day.newMembers, color: "#2ec4b6" },
      { label: "New subscriptions", pick: (day) => day.newSubscriptions, color: "#f5a623" }
    ]
  }
]

const currency = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" })
const AXIS = { stroke: "#9aa8b6", grid: { stroke: "rgba(154, 168, 182, 0.15)" }, ticks: { stroke: "rgba(154, 168, 182, 0.3)" } }
// uPlot's defaults: a tick 10 px long, 5 px from its label
const TICK_AND_GAP = 15

/** Seconds at noon UTC of each day, uPlot's time axis. */
const timesOf = (days: ReadonlyArray<ReportDay>): number[] => days.map((day) => Date.parse(`${day.day}T12:00:00Z`) / 1000)

/** The y axis as wide as its widest label, measured in the axis's font (uPlot keeps it as [css font, px]). */
const fittedAxis = (plot: uPlot, labels: ReadonlyArray<string> | null, axisIndex: number): number => {
  const font = (plot.axes[axisIndex] as { readonly font?: ReadonlyArray<unknown> } | undefined)?.font?.[0]
  if (typeof font === "string") plot.ctx.font = font
  return axisWidth(labels ?? [], (text) => plot.ctx.measureText(text).width / devicePixelRatio, TICK_AND_GAP)
}

const total = (line: Line, days: ReadonlyArray<ReportDay>) => days.reduce((sum, day) => sum + line.pick(day), 0)

const Chart = ({ spec, days }: { readonly spec: ChartSpec; readonly days: ReadonlyArray<ReportDay> }) => {
  const frame = useRef<HTMLDivElement>(null)
  useEffect(() => {
    const element = frame.current
    if (element === null) return
    let plot: uPlot | undefined
    let cancelled = false
    const resize = new ResizeObserver(() => plot?.setSize({ width: element.clientWidth, height: 220 }))
    const format = spec.money ? moneyValue : countValue
    const times = timesOf(days)
    const first = times[0]
    const last = times[times.length - 1]
    // with the pointer on no day, the legend says what the whole range adds up to
    const range = first === undefined || last === undefined ? "" : `${dayTick(first)} – ${dayTick(last)}`
    void import("uplot").then(({ default: UPlot }) => {
      if (cancelled) return
      plot = new UPlot(
        {
          width: element.clientWidth,
          height: 220,
          tzDate: (seconds) => UPlot.tzDate(new Date(seconds * 1000), "UTC"),
          scales: spec.money ? { x: { time: true } } : { x: { time: true }, y: { range: (_, _min, max) => countRange(max) } },
          axes: [
            { ...AXIS, values: (_, ticks) => ticks.map(dayTick) },
            {
              ...AXIS,
              size: (self, labels, axisIndex) => fittedAxis(self, labels, axisIndex),
              values: (_, ticks) => ticks.map((tick) => (spec.money ? moneyTick(tick) : countValue(tick))),
              ...(spec.money ? {} : { incrs: [...COUNT_INCREMENTS] })
            }
          ],
          series: [
            {
              label: "Day",
              value: (_, seconds) => (seconds === null ? range : formatDay(new Date(seconds * 1000).toISOString().slice(0, 10)))
            },
            ...spec.lines.map((line) => ({
              label: line.label,
              stroke: line.color,
              width: 2,
              points: { show: days.length <= 62 },
              value: (_: uPlot, value: number | null) => (value === null ? `${format(total(line, days))} in all` : format(value))
            }))
          ]
        },
        [timesOf(days), ...spec.lines.map((line) => days.map(line.pick))],
        element
      )
      resize.observe(element)
    })
    return () => {
      cancelled = true
      resize.disconnect()
      plot?.destroy()
    }
  }, [spec, days])
  const summary = spec.lines
    .map((line) => `${line.label}: ${spec.money ? currency.format(total(line, days)) : total(line, days)} in all`)
    .join("; ")
  return (
    <figure className={styles.chart}>
      <figcaption className={styles.chartCaption}>{spec.title}</figcaption>
      <div ref={frame} className={styles.chartCanvas} role="img" aria-label={`${spec.title}. ${summary}.`} />
    </figure>
  )
}

const CHANGES: ReadonlyArray<{ readonly label: string; readonly key: keyof ReportTotals; readonly money: boolean }> = [
  { label: "Revenue", key: "revenue", money: true },
  { label: "Revenue excluding fees", key: "revenueExcludingFees", money: true },
  { label: "Orders", key: "orders", money: false },
  { label: "New members", key: "newMembers", money: false },
  { label: "New subscriptions", key: "newSubscriptions", money: false }
]

const percent = new Intl.NumberFormat("en-GB", { style: "percent", maximumFractionDigits: 1, signDisplay: "exceptZero" })

/** The range's figures against the period of the same length before it, and the daily charts. */
export const ReportCharts = ({ series }: { readonly series: ReportSeries }) => {
  const { totals, previous } = series
  const before = `${formatDay(previous.start)} – ${formatDay(previous.end)}`
  return (
    <>
      <dl className={styles.figures} aria-label={`Against ${before}`}>
        {CHANGES.map(({ label, key, money }) => {
          const change = changeAgainst(totals[key], previous.totals[key])
          const shown = money ? currency.format(totals[key]) : totals[key].toLocaleString("en-GB")
          const was = money ? currency.format(previous.totals[key]) : previous.totals[key].toLocaleString("en-GB")
          return (
            <div key={key} className={styles.figure}>
              <dt className={styles.figureLabel}>{label}</dt>
              <dd className={styles.figureValue}>
                {shown}{" "}
                <span
                  className={change === null || change > 0 ? styles.changeUp : change < 0 ? styles.changeDown : styles.changeFlat}
                  title={`${was} in ${before}`}
                >
                  {change === null ? "new" : percent.format(change)}
                </span>
              </dd>
            </div>
          )
        })}
      </dl>
      <p className={surfaces.muted}>Changes compare with {before}. Days run midnight to midnight UTC.</p>
      <div className={styles.charts}>
        {CHARTS.map((spec) => (
          <Chart key={spec.title} spec={spec} days={series.days} />
        ))}
      </div>
    </>
  )
}
