import { useRef, useState } from "react"
import { DayPicker } from "react-day-picker"
import "react-day-picker/style.css"
import { dayName, dayOf, monthCaption } from "../../domain/DateCaptions.ts"
import { DATE_PICKER, yearPage } from "../../domain/Dates.ts"
import { button } from "../shared/controls.css.ts"
import * as styles from "./RangePicker.css.ts"

/** A calendar day as a local Date at noon, clear of any daylight-saving edge. */
const dateOf = (day: string): Date => {
  const [year = 2000, month = 1, date = 1] = day.split("-").map(Number)
  const at = new Date(2000, month - 1, date, 12)
  at.setFullYear(year)
  return at
}
const firstOfMonth = (year: number, month: number): Date => {
  const at = new Date(2000, month, 1, 12)
  at.setFullYear(year)
  return at
}
const MIN = firstOfMonth(DATE_PICKER.minYear, 0)
const lastDayOf = (year: number): Date => {
  const at = new Date(2000, 11, 31, 12)
  at.setFullYear(year)
  return at
}
const MAX_DAY = lastDayOf(DATE_PICKER.maxYear)
// a range is sent as YYYY-MM-DD: the year 10000 can be browsed to (SPEC §9) but not picked
const LAST_PICKABLE_DAY = lastDayOf(Math.min(DATE_PICKER.maxYear, 9999))

export interface RangePickerProps {
  readonly start: string
  readonly end: string
  /** the first day of a range still being picked */
  readonly pendingStart: string | null
  readonly onDay: (day: string) => void
  readonly labelId: string
}

/**
 * The reports' two-month range picker (SPEC §5, §9): Monday first, weekends marked, 'MMMM YYYY'
 * captions, a 12-year grid per page from year 100 to 10000, days outside that clipped. The first
 * click starts a range, the second ends it.
 */
export const RangePicker = ({ start, end, pendingStart, onDay, labelId }: RangePickerProps) => {
  const [month, setMonth] = useState(() => {
    const shown = dateOf(start)
    return firstOfMonth(shown.getFullYear(), shown.getMonth())
  })
  const [yearsOpen, setYearsOpen] = useState(false)
  const selected = pendingStart === null ? { from: dateOf(start), to: dateOf(end) } : { from: dateOf(pendingStart), to: undefined }
  const year = month.getFullYear()
  const page = yearPage(year)
  const firstYear = page[0] ?? year
  // the grid goes with the focused year in it: focus goes back to the toggle that opened it
  const yearToggle = useRef<HTMLButtonElement>(null)
  const closeYears = () => {
    setYearsOpen(false)
    yearToggle.current?.focus()
  }
  const pageAt = (candidate: number) =>
    setMonth(firstOfMonth(Math.min(DATE_PICKER.maxYear, Math.max(DATE_PICKER.minYear, candidate)), month.getMonth()))

  return (
    <div className={styles.picker}>
      <div className={styles.years}>
        <button
          ref={yearToggle}
          type="button"
          className={button({ tone: "secondary" })}
          aria-expanded={yearsOpen}
          aria-controls="report-years"
          onClick={() => setYearsOpen((open) => !open)}
        >
          Year {year}
        </button>
        {pendingStart === null ? null : (
          <p className={styles.hint} role="status">
            Pick the last day of the range.
          </p>
        )}
      </div>
      {yearsOpen ? (
        // biome-ignore lint/a11y/useSemanticElements: a grid of year buttons, not a form's fieldset
        <div
          id="report-years"
          role="group"
          aria-label={`Years ${firstYear} to ${page.at(-1) ?? firstYear}`}
          className={styles.yearGrid}
          onKeyDown={(event) => {
            if (event.key === "Escape") closeYears()
          }}
        >
          <div className={styles.yearNav}>
            <button
              type="button"
              className={button({ tone: "ghost" })}
              disabled={firstYear <= DATE_PICKER.minYear}
              onClick={() => pageAt(firstYear - DATE_PICKER.yearsPerPage)}
            >
              Earlier years
            </button>
            <button
              type="button"
              className={button({ tone: "ghost" })}
              disabled={firstYear + DATE_PICKER.yearsPerPage > DATE_PICKER.maxYear}
              onClick={() => pageAt(firstYear + DATE_PICKER.yearsPerPage)}
            >
              Later years
            </button>
          </div>
          <div className={styles.yearCells}>
            {page.map((candidate) => (
              <button
                key={candidate}
                type="button"
                className={candidate === year ? styles.yearCurrent : styles.yearCell}
                aria-pressed={candidate === year}
                onClick={() => {
                  pageAt(candidate)
                  closeYears()
                }}
              >
                {candidate}
              </button>
            ))}
          </div>
        </div>
      ) : null}
      <DayPicker
        aria-labelledby={labelId}
        className={styles.calendar}
        mode="range"
        selected={selected}
        onSelect={() => {}}
        onDayClick={(day) => onDay(dayOf(day))}
        month={month}
        onMonthChange={setMonth}
        numberOfMonths={DATE_PICKER.rangeMonths}
        weekStartsOn={DATE_PICKER.firstDayOfWeek}
        startMonth={MIN}
        endMonth={MAX_DAY}
        disabled={[{ before: MIN }, { after: LAST_PICKABLE_DAY }]}
        modifiers={{ weekend: { dayOfWeek: [...DATE_PICKER.weekendDays] } }}
        modifiersClassNames={{ weekend: styles.weekend }}
        formatters={{ formatCaption: monthCaption }}
        // the visible number first, so what a voice user reads out is the button's name
        labels={{
          labelDayButton: (day, modifiers) =>
            `${dayName(day)}${modifiers.today === true ? ", today" : ""}${modifiers.selected === true ? ", selected" : ""}`
        }}
      />
    </div>
  )
}
