import { useActorRef, useSelector } from "@xstate/react"
import { NO_SCHEDULE } from "../../domain/Schedule.ts"
import {
  selectChannels,
  selectDay,
  selectDays,
  selectError,
  selectIsReady,
  selectQuery,
  selectSearch,
  selectStatus,
  selectStreamsUnavailable,
  selectTimeZone
} from "../../machines/guide/guideSelectors.ts"
import { button, fieldLabel, textInput, visuallyHidden } from "../shared/controls.css.ts"
import { useServices } from "../shared/ServicesContext.tsx"
import { ChannelList } from "./ChannelList.tsx"
import * as styles from "./GuideView.css.ts"
import { dayOption } from "./guideFormat.ts"
import { SearchResults } from "./SearchResults.tsx"

const SKELETONS = [0, 1, 2]

/** /stream-schedule (SPEC §2): a day's programmes by channel, and a search over all seven days. */
export const GuideView = () => {
  const services = useServices()
  const guide = useActorRef(services.guide, services.actorOptions)
  const ready = useSelector(guide, selectIsReady)
  const streamsUnavailable = useSelector(guide, selectStreamsUnavailable)
  const status = useSelector(guide, selectStatus)
  const error = useSelector(guide, selectError)
  const days = useSelector(guide, selectDays)
  const day = useSelector(guide, selectDay)
  const timeZone = useSelector(guide, selectTimeZone)
  const channels = useSelector(guide, selectChannels)
  const query = useSelector(guide, selectQuery)
  const search = useSelector(guide, selectSearch)
  const searching = search.state !== "idle"

  return (
    <section className={styles.page} aria-labelledby="page-title">
      <div className={styles.intro}>
        <h1 id="page-title" className={styles.title}>
          Stream Schedule
        </h1>
        <p className={styles.lead}>
          What is on today and over the next six days.{ready ? <> Times are in your time zone, {timeZone}.</> : null}
        </p>
      </div>

      <div className={styles.toolbar}>
        <div className={styles.control}>
          <label className={fieldLabel} htmlFor="guide-day">
            Day
          </label>
          <select
            id="guide-day"
            className={`${textInput} ${styles.select}`}
            value={day}
            disabled={!ready}
            onChange={(event) => guide.send({ type: "day.choose", day: event.target.value })}
          >
            {days.map((option, index) => (
              <option key={option} value={option}>
                {dayOption(option, index)}
              </option>
            ))}
          </select>
        </div>
        <search className={`${styles.control} ${styles.searchControl}`}>
          <label className={fieldLabel} htmlFor="guide-search">
            Search programmes
          </label>
          <input
            id="guide-search"
            type="search"
            className={textInput}
            value={query}
            disabled={!ready}
            placeholder="Title or subtitle, all seven days"
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => guide.send({ type: "search.change", query: event.target.value })}
          />
        </search>
      </div>

      {searching ? (
        <SearchResults search={search} query={query} days={days} timeZone={timeZone} onRetry={() => guide.send({ type: "search.retry" })} />
      ) : status === "loading" ? (
        <div role="status" className={styles.skeletons}>
          <span className={visuallyHidden}>Loading the schedule…</span>
          {SKELETONS.map((index) => (
            <div key={index} className={styles.skeleton} aria-hidden="true" />
          ))}
        </div>
      ) : status === "failed" ? (
        <div className={styles.notice} role="alert">
          <p className={styles.noticeText}>{error}</p>
          <button type="button" className={button({ tone: "primary" })} onClick={() => guide.send({ type: "day.retry" })}>
            Try again
          </button>
        </div>
      ) : status === "empty" ? (
        <p className={styles.empty}>{NO_SCHEDULE}</p>
      ) : (
        <>
          {streamsUnavailable ? (
            <div className={styles.notice} role="status">
              <p className={styles.noticeText}>The streams could not be loaded, so the programmes have no Watch links for now.</p>
              <button type="button" className={button({ tone: "secondary" })} onClick={() => guide.send({ type: "streams.retry" })}>
                Try again
              </button>
            </div>
          ) : null}
          <ChannelList channels={channels} timeZone={timeZone} />
        </>
      )}
    </section>
  )
}
