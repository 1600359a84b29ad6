import { NO_SCHEDULE } from "../../domain/Schedule.ts"
import { guideMachine } from "../../machines/guide/guideMachine.ts"
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
import { controlRow, field, fieldLabel, growingField, textInput } from "../shared/controls.css.ts"
import { LoadingPlaceholder } from "../shared/LoadingPlaceholder.tsx"
import { PageView } from "../shared/PageView.tsx"
import { RetryNotice } from "../shared/RetryNotice.tsx"
import { usePageActor } from "../shared/ServicesContext.tsx"
import * as surfaces from "../shared/surfaces.css.ts"
import { useSelectors } from "../shared/useSelectors.ts"
import { ChannelList } from "./ChannelList.tsx"
import * as styles from "./GuideView.css.ts"
import { dayOption, zoneName } from "./guideFormat.ts"
import { SearchResults } from "./SearchResults.tsx"

/** /stream-schedule (SPEC §2): a day's programmes by channel, and a search over all seven days. */
export const GuideView = () => {
  const guide = usePageActor(guideMachine)
  const { ready, streamsUnavailable, status, error, days, day, timeZone, channels, query, search } = useSelectors(guide, {
    ready: selectIsReady,
    streamsUnavailable: selectStreamsUnavailable,
    status: selectStatus,
    error: selectError,
    days: selectDays,
    day: selectDay,
    timeZone: selectTimeZone,
    channels: selectChannels,
    query: selectQuery,
    search: selectSearch
  })
  const searching = search.state !== "idle"

  return (
    <PageView
      title="Stream Schedule"
      lead={
        <>
          What is on today and over the next six days.
          {ready ? (
            <>
              {" "}
              Times are in your time zone, <span title={timeZone}>{zoneName(timeZone)}</span>.
            </>
          ) : null}
        </>
      }
      width="full"
    >
      <div className={controlRow}>
        <div className={field}>
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
        <search className={growingField}>
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
        <LoadingPlaceholder label="Loading the schedule…" count={3} height="180px" />
      ) : status === "failed" ? (
        <RetryNotice message={error} onRetry={() => guide.send({ type: "day.retry" })} />
      ) : status === "empty" ? (
        <p className={surfaces.empty()}>{NO_SCHEDULE}</p>
      ) : (
        <>
          {streamsUnavailable ? (
            <RetryNotice
              message="The streams could not be loaded, so the programmes have no Watch links for now."
              onRetry={() => guide.send({ type: "streams.retry" })}
              partial
              role="status"
            />
          ) : null}
          <ChannelList channels={channels} timeZone={timeZone} />
        </>
      )}
    </PageView>
  )
}
