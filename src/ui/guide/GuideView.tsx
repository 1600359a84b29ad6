import { useMemo } from "react"
import { Link } from "react-router-dom"
import { REMINDERS_ROUTE } from "../../domain/Reminder.ts"
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
import { remindersMachine } from "../../machines/reminders/remindersMachine.ts"
import {
  selectByProgramme,
  selectDraft,
  selectIsSetting,
  selectError as selectRemindersError,
  selectRemoving
} from "../../machines/reminders/remindersSelectors.ts"
import type { ReminderControls } from "../reminders/ProgrammeReminder.tsx"
import { ReminderDialog } from "../reminders/ReminderDialog.tsx"
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
  const reminderActor = usePageActor(remindersMachine)
  const { byProgramme, removing, draft, setting, remindersError } = useSelectors(reminderActor, {
    byProgramme: selectByProgramme,
    removing: selectRemoving,
    draft: selectDraft,
    setting: selectIsSetting,
    remindersError: selectRemindersError
  })
  // one object while nothing in it changes, so the channels' memo holds
  const reminders = useMemo<ReminderControls>(
    () => ({
      byProgramme,
      removing,
      ask: (programme) => reminderActor.send({ type: "reminder.ask", programme }),
      remove: (id) => reminderActor.send({ type: "reminder.remove", id })
    }),
    [byProgramme, removing, reminderActor]
  )
  const searching = search.state !== "idle"

  return (
    <PageView
      title="Stream Schedule"
      lead={
        <>
          What is on today and over the next six days; <Link to={REMINDERS_ROUTE}>your reminders</Link> are on a page of their own.
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

      {remindersError === null ? null : (
        <RetryNotice message={remindersError} onRetry={() => reminderActor.send({ type: "reminders.retry" })} partial role="status" />
      )}
      {searching ? (
        <SearchResults
          search={search}
          query={query}
          days={days}
          timeZone={timeZone}
          onRetry={() => guide.send({ type: "search.retry" })}
          reminders={reminders}
        />
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
          <ChannelList channels={channels} timeZone={timeZone} reminders={reminders} />
        </>
      )}
      <ReminderDialog
        draft={draft}
        setting={setting}
        timeZone={timeZone}
        onLead={(minutes) => reminderActor.send({ type: "reminder.chooseLead", minutes })}
        onSet={() => reminderActor.send({ type: "reminder.set" })}
        onCancel={() => reminderActor.send({ type: "reminder.cancel" })}
      />
    </PageView>
  )
}
